import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, makeAgent, startServer, TASKS_AT_EXPORT_BUDGET, time } from './lib.js';
import { createTree } from '../src/domain/trees/trees.js';
import { insertTasksBulk } from '../src/domain/trees/tasks.js';
import { seedTasks, taskFields } from './seed.js';

/**
 * Where the service's memory goes: RSS split into anonymous and file-backed pages, and the V8
 * heap (by space) and external memory as the service's own metrics report them, at start, after
 * the exports of 02-data and while it idles. Not a suite: a probe for deciding what to change.
 *
 *   nice -n 10 npx tsx bench/memory.ts [exports=20] [--big]
 * `--big` also seeds the 100,000 tasks of 02-data first (slower); DATABASE_URL measures PostgreSQL.
 */
const exports = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20);
const big = process.argv.includes('--big');
const metricsPort = await freePort();
// glibc's MALLOC_* tunables reach the service, to tell malloc's retention from the heap's.
const mallocEnv = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('MALLOC_')),
);
const server = await startServer(process.env.DATABASE_URL ? 'postgres' : 'sqlite', {
  METRICS_PORT: String(metricsPort),
  ...mallocEnv,
});
try {
  const { actor, token } = await makeAgent(server, 'grove');
  if (big) await seedTasks(server.app.deps, actor, 2, 50_000);
  const tree = await createTree(server.app.deps, actor, { name: 'at budget' });
  await insertTasksBulk(
    server.app.deps,
    actor,
    tree.id,
    Array.from({ length: TASKS_AT_EXPORT_BUDGET }, (_, i) => taskFields(i)),
  );
  const { pid } = await server.asProcess();
  await sample('ready', pid);
  let bytes = 0;
  const timing = await time('export', exports, async () => {
    const answer = await fetch(`${server.url}/api/v1/trees/${tree.id}/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (answer.status !== 200) throw new Error(`export answered ${answer.status}`);
    bytes = (await answer.arrayBuffer()).byteLength;
  });
  console.log(
    `export: ${(bytes / 1048576).toFixed(1)} MB of JSON, p50 ${timing.p50.toFixed(0)} ms, p99 ${timing.p99.toFixed(0)} ms`,
  );
  await sample(`after ${exports} exports`, pid);
  // 02-data reads RSS 5 s after the loads; V8's memory reducer runs about 8 s after a full GC.
  await delay(5_000);
  await sample('idle 5 s later', pid);
  await delay(25_000);
  await sample('idle 30 s later', pid);
} finally {
  await server.close();
}

async function sample(label: string, pid: number): Promise<void> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
  const metric = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  console.log(
    `${label.padEnd(20)} RSS ${kb('VmRSS').toFixed(0)} MB (anon ${kb('RssAnon').toFixed(0)}, file ${kb('RssFile').toFixed(0)}) · heap total ${metric('nodejs_heap_size_total_bytes').toFixed(0)}, used ${metric('nodejs_heap_size_used_bytes').toFixed(0)}, external ${metric('nodejs_external_memory_bytes').toFixed(0)} MB`,
  );
  const spaces = [...text.matchAll(/^nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\S+)$/gm)].map(
    ([, space, used]) => {
      const total = Number(
        new RegExp(`^nodejs_heap_space_size_total_bytes\\{space="${space}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
      );
      return `${space} ${(Number(used) / 1048576).toFixed(0)}/${(total / 1048576).toFixed(0)}`;
    },
  );
  console.log(`${''.padEnd(20)} heap spaces used/total MB: ${spaces.join(', ')}`);
}
