import { alternate, load, printHeader, report, startServer } from './lib.js';
import { casePopulations, cases } from './suites/01-clients.js';

/**
 * MCP `tools/call get_task` as a share of the REST read on one service, loaded in turn
 * (BENCH_ROUNDS each, default 3; medians): the two cases of 01-clients, both eras, so the drift of
 * a shared machine falls on both alike. Usage: npx tsx bench/mcp-share.ts [sqlite|postgres]
 */
const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const server = await startServer(kind);
try {
  const populations = await casePopulations(server, 'get_task');
  await server.asProcess();
  const all = await cases(server, populations);
  const rest = all.find(([name]) => name === 'GET /api/v1/tasks/{id}')!;
  printHeader(`MCP get_task against the REST read, alternating (${kind})`);
  for (const [name, options] of all.filter(([n]) => n.startsWith('POST /mcp'))) {
    await load('warm-up', { ...rest[1], seconds: 1 });
    await load('warm-up', { ...options, seconds: 1 });
    const [base, mcp] = await alternate([rest[0], rest[1]], [name, options], Number(process.env.BENCH_ROUNDS ?? 3));
    report(base);
    report(mcp, base, 'share of the REST read, same run, alternating');
  }
} finally {
  await server.close();
}
process.exit(0);
