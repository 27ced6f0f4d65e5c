import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { load, startServer } from './lib.js';
import { casePopulations, cases } from './suites/01-clients.js';
import { printSelfTime } from './self-time.js';

/**
 * Where the server's time goes for one request shape under the clients' load: the service in
 * this process, the load (25 users × 20 tokens) from its own process, the V8 CPU profiler on only
 * for the load. Prints the functions with the most self time and writes the .cpuprofile for
 * Chrome DevTools. Usage: npx tsx bench/profile.ts me|task|304|post|mcp|mcp-modern|search|post-if-match|scoped|batch|mcp-batch [sqlite|postgres]
 */
const shape = process.argv[2] ?? 'task';
const kind = (process.argv[3] ?? 'sqlite') as 'sqlite' | 'postgres';
/** Which case of 01-clients each shape is. */
const CASES: Record<string, string> = {
  me: 'GET /api/v1/auth/me',
  task: 'GET /api/v1/tasks/{id}',
  '304': 'GET /api/v1/tasks/{id}, If-None-Match → 304',
  post: 'POST /api/v1/tasks (history, search index, journal)',
  mcp: 'POST /mcp tools/call get_task, 2025-11-25 session',
  'mcp-modern': 'POST /mcp tools/call get_task, 2026-07-28 (no session)',
  search: 'GET /api/v1/search, 2 terms, 5,000 tasks (25 users × 200), default page',
  'post-if-match': 'POST /api/v1/tasks with If-Match',
  scoped: 'GET /api/v1/tasks/{id}, tree-scoped token',
  batch: 'POST /api/v1/tasks/batch, create of 50',
  'mcp-batch': 'POST /mcp tools/call create_tasks of 50, 2025-11-25 session',
};
if (CASES[shape] === undefined) throw new Error(`unknown shape ${shape}: one of ${Object.keys(CASES).join(', ')}`);
const server = await startServer(kind, JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>);
const chosen = (await cases(server, await casePopulations(server, CASES[shape]))).find(
  ([name]) => name === CASES[shape],
);
const plan = chosen![1];
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const result = await load(shape, plan);
const { profile } = await session.post('Profiler.stop');
const file = `profile-${shape}-${kind}.cpuprofile`;
writeFileSync(file, JSON.stringify(profile));
console.log(
  `${shape} (${kind}): ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, errors ${result.errors}; profile in ${file}`,
);

printSelfTime(profile, 40);
await server.close();
process.exit(0);
