import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { makeAgent, startServer, TASKS_AT_EXPORT_BUDGET } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { insertTasksBulk } from '../src/domain/trees/tasks.js';
import { taskFields } from './seed.js';
import { printSelfTime } from './self-time.js';

/**
 * Where an export at the contributor budget spends its time: the export of 02-data (a tree at the contributor budget)
 * through HTTP, the service in this process. Usage: npx tsx bench/export-profile.ts [sqlite|postgres]
 */
const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const server = await startServer(kind);
const { actor, token } = await makeAgent(server, 'grove');
const tree = await createTree(server.app.deps, actor, { name: 'at budget' });
await insertTasksBulk(
  server.app.deps,
  actor,
  tree.id,
  Array.from({ length: TASKS_AT_EXPORT_BUDGET }, (_, i) => taskFields(i)),
);
const once = async () => {
  const t = performance.now();
  const answer = await fetch(`${server.url}/api/v1/trees/${tree.id}/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await answer.arrayBuffer();
  return performance.now() - t;
};
for (let i = 0; i < 5; i++) await once();
const plain: number[] = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < 30; i++) plain.push(await once());
plain.sort((a, b) => a - b);
const cpu = process.cpuUsage(cpu0);
console.log(
  `export without profiler: p50 ${plain[15]!.toFixed(1)} ms, min ${plain[0]!.toFixed(1)} ms, CPU ${((cpu.user + cpu.system) / 30_000).toFixed(1)} ms each`,
);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const times: number[] = [];
for (let i = 0; i < 20; i++) times.push(await once());
const { profile } = await session.post('Profiler.stop');
writeFileSync(`profile-export-${kind}.cpuprofile`, JSON.stringify(profile));
times.sort((a, b) => a - b);
console.log(`export: p50 ${times[10]!.toFixed(1)} ms, max ${times[19]!.toFixed(1)} ms`);
printSelfTime(profile, 30);
await server.close();
process.exit(0);
