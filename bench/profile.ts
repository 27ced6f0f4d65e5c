import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { load, population, startServer } from './lib.js';
import { CASE_NAMES, cases } from './suites/01-clients.js';
import { printSelfTime } from './self-time.js';

/**
 * Where the server's time goes for one request shape under the clients' load: the service in
 * this process, the load (25 users × 20 tokens) from its own process, the V8 CPU profiler on only
 * for the load. Prints the functions with the most self time and writes the .cpuprofile for
 * Chrome DevTools. Usage: npx tsx bench/profile.ts me|task|304|post|mcp|mcp-modern|batch|mcp-batch [sqlite|postgres]
 */
const shape = process.argv[2] ?? 'task';
const kind = (process.argv[3] ?? 'sqlite') as 'sqlite' | 'postgres';
/** Which case of 01-clients each shape is. */
const CASES: Record<string, string> = {
  me: CASE_NAMES[0],
  task: CASE_NAMES[1],
  '304': CASE_NAMES[2],
  post: CASE_NAMES[3],
  mcp: CASE_NAMES[4],
  'mcp-modern': CASE_NAMES[5],
  batch: CASE_NAMES[6],
  'mcp-batch': CASE_NAMES[7],
};
if (CASES[shape] === undefined) throw new Error(`unknown shape ${shape}: one of ${Object.keys(CASES).join(', ')}`);
const server = await startServer(kind, JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>);
const chosen = (await cases(server, [await population(server)])).find(([name]) => name === CASES[shape]);
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
