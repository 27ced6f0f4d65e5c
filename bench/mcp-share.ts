import { alternate, load, printHeader, report, startServer } from './lib.js';
import { casePopulations, cases } from './suites/01-clients.js';

/**
 * MCP `tools/call get_task` as a share of the REST read on one service, loaded in turn
 * (BENCH_ROUNDS each, default 3; medians): the two cases of 01-clients, both eras, so the drift of
 * a shared machine falls on both alike. Usage: npx tsx bench/mcp-share.ts [sqlite|postgres]
 * (BENCH_CASE='11-25' or '07-28' measures one era only).
 */
const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const server = await startServer(kind);
// Only the get_task cases (create_tasks is another measure); BENCH_CASE='11-25' or '07-28' picks one era.
const only = process.env.BENCH_CASE;
const eras = ['2025-11-25 session', '2026-07-28 (no session)'].filter(
  (era) => only === undefined || only.split('|').some((t) => era.includes(t)),
);
try {
  // Each era on tokens of its own, the REST read's included: the REST read of the second era
  // would otherwise meet the rate limit its first runs spent (a 429 answers faster than a read).
  const sets = [];
  for (let i = 0; i < eras.length; i++) sets.push(await casePopulations(server, 'get_task'));
  await server.asProcess();
  printHeader(`MCP get_task against the REST read, alternating (${kind})`);
  for (const [i, era] of eras.entries()) {
    const all = await cases(server, sets[i]!);
    const rest = all.find(([name]) => name === 'GET /api/v1/tasks/{id}')!;
    const [name, options] = all.find(([n]) => n === `POST /mcp tools/call get_task, ${era}`)!;
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
