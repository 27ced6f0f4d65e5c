import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { load, NEW_TASK, population, SECONDS, startServer, type Client } from './lib.js';

/**
 * CPU time the service spends per request under the load of `01-clients` (25 users × 20 tokens
 * under the real limit, the service as `npm start` runs it), for comparing two versions of the
 * code: req/s on this shared VM moves by a fifth between minutes, CPU per request far less.
 *
 *   taskset -c 1 npx tsx bench/cpu-under-load.ts [path]     (default /api/v1/auth/me; {task} is a task id)
 *   taskset -c 1 npx tsx bench/cpu-under-load.ts create     (POST /api/v1/tasks, as 01-clients creates)
 *
 * The service (every thread of it) is pinned to CPU 0; run this script pinned to CPU 1 as above,
 * so the load generator it starts stays off the service's core. Each of three loads (BENCH_LOADS; BENCH_SECONDS, 5 s by default) uses a
 * population of its own. It prints req/s and the service's CPU µs per answered request, all
 * threads and the main thread alone. BENCH_REVALIDATE=1 sends each answer's ETag back (the 304 path).
 * BENCH_DATABASE=postgres (with DATABASE_URL) measures the service on PostgreSQL; the database server is not pinned.
 * BENCH_PIN=0 leaves the service unpinned, as `npm run bench` runs it (for comparing the two placements).
 * BENCH_SERVICE_ENV='{"JOURNAL":"off"}' gives the service settings of its own (what a part costs); BENCH_SERVICE_NODE_ARGS passes Node options to it.
 * BENCH_BURST=500 first sends that many requests at once, as agents connecting together do: with
 * V8's allocation-site pretenuring on (src/heap-tuning.ts), such a burst left the service a third
 * slower for the rest of its life (BENCH_SERVICE_NODE_ARGS=--trace-gc-nvp shows what survives).
 */
const creates = process.argv[2] === 'create';
const revalidates = process.env.BENCH_REVALIDATE === '1';
const path = creates ? '/api/v1/tasks' : (process.argv[2] ?? '/api/v1/auth/me');
const server = await startServer(
  process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite',
  JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>,
);
// BENCH_LOADS=1 and many runs, alternating versions, separates them better: a process's speed varies more than its loads'.
const populations: Client[][] = [];
for (let i = 0; i < Number(process.env.BENCH_LOADS ?? 3); i++) populations.push(await population(server));
const { pid } = await server.asProcess();
if (process.env.BENCH_PIN !== '0') execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });

/** utime + stime in µs (clock ticks of 10 ms) of the process, or of its main thread. */
function cpuMicros(statPath: string): number {
  const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
const all = `/proc/${pid}/stat`;
const main = `/proc/${pid}/task/${pid}/stat`;

try {
  const burst = Number(process.env.BENCH_BURST ?? 0);
  await Promise.all(
    Array.from({ length: burst }, async (_, i) => {
      const c = populations[0]![i % populations[0]!.length]!;
      await (
        await fetch(`${server.url}/api/v1/tasks/${c.taskId}`, { headers: { authorization: `Bearer ${c.token}` } })
      ).arrayBuffer();
    }),
  );
  for (const [i, clients] of populations.entries()) {
    const requests = [];
    for (const c of clients) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${c.token}`,
        ...(creates ? { 'content-type': 'application/json' } : {}),
      };
      const body = creates ? JSON.stringify({ tree_id: c.treeId, ...NEW_TASK }) : undefined;
      const request = { path: path.replace('{task}', c.taskId), headers, body };
      // BENCH_REVALIDATE=1: every request carries the answer's ETag, so the service answers 304.
      if (revalidates)
        request.headers['if-none-match'] = (
          await fetch(server.url + request.path, { headers: request.headers })
        ).headers.get('etag')!;
      requests.push(request);
    }
    const expectStatus = creates ? 201 : revalidates ? 304 : 200;
    const method = creates ? 'POST' : 'GET';
    if (i === 0) await load('warm-up', { url: server.url, method, requests, seconds: 1, expectStatus });
    const [allBefore, mainBefore] = [cpuMicros(all), cpuMicros(main)];
    const measured = await load(path, { url: server.url, method, requests, expectStatus });
    const answered = measured.requestsPerSecond * SECONDS;
    const perRequest = (before: number, file: string) => ((cpuMicros(file) - before) / answered).toFixed(1);
    console.log(
      `${path}: ${measured.requestsPerSecond.toFixed(0)} req/s, ${perRequest(allBefore, all)} µs CPU per request (main thread ${perRequest(mainBefore, main)})` +
        (measured.errors > 0 ? `, ${measured.errors} FAILED` : ''),
    );
  }
} finally {
  await server.close();
}
