import { readFileSync } from 'node:fs';
import { load, startServer } from './lib.js';
import { casePopulations, cases } from './suites/01-clients.js';

/**
 * What a created task costs the service in CPU, single creates against batches of 50 (REST and
 * MCP), from the service process's own CPU time (all its threads, /proc/<pid>/stat) over each
 * case of 01-clients: a figure that a busy machine moves far less than tasks per second, since
 * the load shares the cores with other processes. ROUNDS (default 2) runs the three in turn that
 * many times. Linux only. Usage: npx tsx bench/create-cpu.ts
 */
const TICKS_PER_SECOND = 100;
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
};
const BATCH = 50;
const names = [
  'POST /api/v1/tasks (history, search index, journal)',
  'POST /api/v1/tasks/batch, create of 50',
  'POST /mcp tools/call create_tasks of 50, 2025-11-25 session',
];
const server = await startServer('sqlite');
try {
  const populations = await casePopulations(server, names.join('|'));
  const { pid } = await server.asProcess();
  const chosen = (await cases(server, populations)).filter(([name]) => names.includes(name));
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    for (const [name, options] of chosen) {
      const before = cpuMs(pid);
      const measured = await load(name, options);
      const used = cpuMs(pid) - before;
      const perRequest = name === names[0] ? 1 : BATCH;
      const requests = measured.requestsPerSecond * (options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5));
      const tasks = requests * perRequest;
      console.log(
        `${name}: ${(measured.requestsPerSecond * perRequest).toFixed(0)} tasks/s, p99 ${measured.p99} ms, ` +
          `service CPU ${((used * 1000) / tasks).toFixed(1)} µs a task (${(used / requests).toFixed(2)} ms a request), errors ${measured.errors}`,
      );
    }
  }
} finally {
  await server.close();
}
