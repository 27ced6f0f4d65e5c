import { writeFileSync } from 'node:fs';
import { makeAgent, startBaseline, startServer } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { createTask } from '../src/domain/trees/tasks.js';

/**
 * For bench/cpu-per-request.sh: the real service (SQLite, or PostgreSQL when DATABASE_URL is set)
 * and bare Fastify in this process, an agent token, one task and four empty trees for create loads,
 * announced in the file named by its first argument; runs until killed.
 */
const target = process.argv[2] ?? 'bench-target.json';
// One token makes every request here: the per-minute limit would answer most of them 429.
const server = await startServer(process.env.DATABASE_URL ? 'postgres' : 'sqlite', {
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const { token, actor } = await makeAgent(server);
const tree = await createTree(server.app.deps, actor, { name: 'Bench' });
const task = await createTask(server.app.deps, actor, {
  tree_id: tree.id,
  title: 'Water the roses',
  notes: 'twice a week',
});
const trees = [];
for (let i = 0; i < 4; i++) trees.push((await createTree(server.app.deps, actor, { name: `Creates ${i}` })).id);
const bare = await startBaseline();
writeFileSync(
  target,
  JSON.stringify({ url: server.url, bare: bare.url, token, pid: process.pid, task: task.id, trees }),
);
process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => bare.close())
    .then(() => process.exit(0));
});
setInterval(() => {}, 60_000);
