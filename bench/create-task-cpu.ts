import { cpuUsage } from 'node:process';
import { makeAgent, NEW_TASK, startServer } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { createTask } from '../src/domain/trees/tasks.js';

/**
 * CPU time of one `createTask` through the domain, no HTTP: for comparing versions of the write
 * path (`npx tsx bench/create-task-cpu.ts`; with DATABASE_URL set, on PostgreSQL, where the
 * figure leaves out the database server's own time). Creates run one after another, then 10 at a
 * time into one tree as concurrent requests would, then 10 at a time over 25 trees (the shape of
 * the HTTP bench's load); each run uses fresh trees to stay under the plan's limit.
 */
const COUNT = Number(process.env.BENCH_CREATES ?? 5000);
const server = await startServer(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
const deps = server.app.deps;
const { actor } = await makeAgent(server);

/** `parallel` creators; with `spread` trees, each create goes to the next tree in turn, as the HTTP bench's 25 users do. */
async function run(label: string, parallel: number, spread = 1): Promise<void> {
  const trees = await Promise.all(Array.from({ length: spread }, () => createTree(deps, actor, { name: label })));
  const startCpu = cpuUsage();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < COUNT) await createTask(deps, actor, { tree_id: trees[next % spread]!.id, ...NEW_TASK });
    }),
  );
  const cpu = cpuUsage(startCpu);
  const wall = performance.now() - start;
  console.log(
    `${label}: ${((cpu.user + cpu.system) / COUNT).toFixed(1)} µs CPU per create, ${(COUNT / (wall / 1000)).toFixed(0)} creates/s`,
  );
}

// BENCH_PARALLEL=10 runs only that (e.g. under valgrind, where instruction counts replace CPU time).
const only = process.env.BENCH_PARALLEL === undefined ? null : Number(process.env.BENCH_PARALLEL);
await run('warm-up', only ?? 1);
for (const parallel of only === null ? [1, 10, 1, 10] : [only]) await run(`${parallel} at a time`, parallel);
if (only === null) for (const round of [1, 2]) await run(`10 at a time over 25 trees (${round})`, 10, 25);
await server.close();
