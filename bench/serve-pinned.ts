import { writeFileSync } from 'node:fs';
import { makeAgent, startBaseline, startServer } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { createTask } from '../src/domain/trees/tasks.js';

/**
 * For bench/cpu-per-request.sh: the real service (SQLite) and bare Fastify in this process, an
 * agent token and one task, announced in the file named by its first argument; runs until killed.
 */
const target = process.argv[2] ?? 'bench-target.json';
const server = await startServer('sqlite');
const { token, actor } = await makeAgent(server);
const tree = await createTree(server.app.deps, actor, { name: 'Bench' });
const task = await createTask(server.app.deps, actor, { tree_id: tree.id, title: 'Water the roses', notes: 'twice a week' });
const bare = await startBaseline();
writeFileSync(target, JSON.stringify({ url: server.url, bare: bare.url, token, pid: process.pid, task: task.id }));
process.on('SIGTERM', () => {
  void server.close().then(() => bare.close()).then(() => process.exit(0));
});
setInterval(() => {}, 60_000);
