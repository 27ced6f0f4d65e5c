import { cpuUsage } from 'node:process';
import { makeAgent, NEW_TASK, startServer } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { createTask } from '../src/domain/trees/tasks.js';

/**
 * CPU time of one `createTask` through the domain, no HTTP: for comparing versions of the write
 * path (`npx tsx bench/create-task-cpu.ts`; with DATABASE_URL set, on PostgreSQL, where the
 * figure leaves out the database server's own time). Creates run one after another, then 10 at a
 * time as concurrent requests would; each run uses a fresh tree to stay under the plan's limit.
 */
const COUNT = Number(process.env.BENCH_CREATES ?? 5000);
const server = await startServer(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
const deps = server.app.deps;
const { actor } = await makeAgent(server);

async function run(label: string, parallel: number): Promise<void> {
  const tree = await createTree(deps, actor, { name: label });
  const startCpu = cpuUsage();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < COUNT) await createTask(deps, actor, { tree_id: tree.id, ...NEW_TASK });
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
await server.close();
