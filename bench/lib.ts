import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createApp, type App } from '../src/app.js';
import { registerUser, setUserPlan } from '../src/domain/accounts/accounts.js';
import { userActor, type Actor } from '../src/domain/actor.js';
import { createToken } from '../src/domain/agents/tokens.js';
import type { PlanName } from '../src/domain/plans.js';
import { createTree } from '../src/domain/trees/trees.js';
import { createTask } from '../src/domain/trees/tasks.js';
import { EXPORT_MAX_CONTRIBUTORS } from '../src/domain/trees/export.js';
import type { LoadPlan, LoadResult } from './load-process.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

/** How long each load runs; BENCH_SECONDS=10 for steadier figures. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** The task every create of the benchmarks makes: a title and some text for the search index to take. */
/**
 * The most tasks an imported tree may hold and still export: each task and its `imported` history
 * entry (CONTRACT §16.3) count, and so does the tree's `created` entry (9,999 of 10,000).
 */
export const TASKS_AT_EXPORT_BUDGET = Math.floor((EXPORT_MAX_CONTRIBUTORS - 1) / 2);

export const NEW_TASK = { title: 'Water the roses', text: 'with the can by the door', notes: 'twice a week in summer' };

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface BenchServer {
  app: App;
  url: string;
  kind: 'sqlite' | 'postgres';
  /**
   * Hands the data over to the service as `npm start` runs it: the in-process app (used for
   * seeding through the domain) stops, and `src/main.ts` starts in a process of its own on the
   * same DATA_DIR or schema with its default settings (logging at info included, to a file).
   * `url` then points at it; `pid` is its process id.
   */
  asProcess(): Promise<{ url: string; pid: number }>;
  /**
   * After asProcess: one more service on the same data from another build's `main.js` (an
   * earlier version of the code, to load in turn with this one); it stops with `close`.
   */
  alsoProcess(mainJs: string): Promise<{ url: string; pid: number }>;
  close(): Promise<void>;
}

/** The real service on a fresh DATA_DIR (or, with DATABASE_URL, in a fresh PostgreSQL schema). */
export async function startServer(
  kind: 'sqlite' | 'postgres' = 'sqlite',
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-bench-'));
  const schema = kind === 'postgres' ? `bench_${randomBytes(4).toString('hex')}` : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRET: 'bench-secret-0123456789',
    ...(schema !== null ? { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
    ...extraEnv,
  };
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...env }));
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  let child: ChildProcess | null = null;
  const others: ChildProcess[] = [];
  /** The service from `mainJs` in a process of its own on this data, once it answers /readyz. */
  const spawnService = async (mainJs: string) => {
    const port = await freePort();
    const log = openSync(join(dataDir, 'service.log'), 'a');
    // BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service as it runs.
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
    const spawned = spawn(process.execPath, [...nodeArgs, mainJs], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', log, log],
    });
    const url = `http://127.0.0.1:${port}`;
    const ready = () =>
      fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    for (let i = 0; !(await ready()); i++) {
      // A build that cannot serve this data (an earlier one refuses a newer migration) says why in its log.
      if (spawned.exitCode !== null || i === 400)
        throw new Error(`${mainJs} did not start: ${readFileSync(join(dataDir, 'service.log'), 'utf8').slice(-500)}`);
      await delay(50);
    }
    return { url, child: spawned };
  };
  const server: BenchServer = {
    app,
    kind,
    url: `http://127.0.0.1:${address.port}`,
    async asProcess() {
      await app.close();
      await ensureBuilt();
      const started = await spawnService(join(here, '../dist/main.js'));
      child = started.child;
      server.url = started.url;
      return { url: server.url, pid: child.pid! };
    },
    async alsoProcess(mainJs: string) {
      const started = await spawnService(mainJs);
      others.push(started.child);
      return { url: started.url, pid: started.child.pid! };
    },
    async close() {
      for (const other of others) {
        const exited = new Promise((resolve) => other.once('exit', resolve));
        other.kill('SIGTERM');
        await exited;
      }
      if (child !== null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      } else {
        await app.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
      if (schema !== null) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
  return server;
}

const root = join(here, '..');

/** Newest modification time of any file under `dir`, in ms. */
function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

let built: Promise<void> | null = null;

/**
 * `npm start` runs `dist/main.js`, so the measured service is the compiled one (no tsx loader
 * in its memory or its stack traces); it is rebuilt here when any source is newer than it.
 */
function ensureBuilt(): Promise<void> {
  built ??= (async () => {
    const compiled = (() => {
      try {
        return statSync(join(root, 'dist/main.js')).mtimeMs;
      } catch {
        return 0;
      }
    })();
    if (compiled >= newestIn(join(root, 'src'))) return;
    console.error('bench: dist/ is older than src/, running npm run build');
    await run('npm', ['run', 'build'], { cwd: root, maxBuffer: 16 << 20 });
  })();
  return built;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The databases to measure: SQLite always, PostgreSQL too when DATABASE_URL is set. */
export function benchDatabases(): ('sqlite' | 'postgres')[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A user on the given plan with a personal token holding every scope the plan allows. */
export async function makeAgent(
  server: BenchServer,
  plan: PlanName = 'grove',
): Promise<{ actor: Actor; token: string }> {
  const deps = server.app.deps;
  const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
  await registerUser(deps, { email, password: 'bench password 123' });
  const user = await setUserPlan(deps, email, plan, null);
  const actor = userActor(user, 'cli');
  const { value } = await createToken(deps, actor, { name: 'bench' });
  return { actor, token: value };
}

/** A bare Fastify server answering a small JSON document: the ceiling of any route. */
export async function startBaseline(
  setup?: (app: FastifyInstance) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  if (setup) setup(app);
  else app.get('/', async () => ({ ok: true, id: 'tsk_01JBENCHMARK0000000000000', title: 'a small JSON document' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** Requests each connection walks in turn (many tokens, paths and bodies); `headers` and `body` apply to all. */
  requests?: { path?: string; headers?: Record<string, string>; body?: string }[];
  expectStatus?: number;
  seconds?: number;
  connections?: number;
}

/**
 * Runs autocannon against one endpoint in a process of its own (bench/load-process.ts), as an
 * outside client would, and reports throughput and latency. Any answer other than
 * `expectStatus` (a 429 included) counts as an error.
 */
export async function load(name: string, options: LoadOptions): Promise<Measurement> {
  const common = { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
  const requests = (options.requests ?? [{}]).map((r) => ({
    ...r,
    headers: { ...common, ...r.headers },
    ...((r.body ?? options.body) !== undefined ? { body: r.body ?? options.body } : {}),
  }));
  const plan: LoadPlan = {
    url: options.url,
    method: options.method ?? 'GET',
    requests,
    seconds: options.seconds ?? SECONDS,
    connections: options.connections ?? CONNECTIONS,
  };
  const dir = mkdtempSync(join(tmpdir(), 'tasktree-load-'));
  const planFile = join(dir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(here, 'load-process.ts'), planFile], {
      maxBuffer: 1 << 20,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
    const expected = String(options.expectStatus ?? 200);
    const wrong = Object.entries(result.statuses)
      .filter(([code]) => code !== expected)
      .reduce((n, [, count]) => n + count, 0);
    return {
      name,
      requestsPerSecond: result.requestsPerSecond,
      p50: result.p50,
      p99: result.p99,
      errors: result.errors + wrong,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The ceiling of any answer on this machine: a bare `node:http` server sending a small JSON
 * document, with nothing of ours around it.
 */
export async function startNodeBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ ok: true, id: 'tsk_01JBENCHMARK0000000000000', title: 'a small JSON document' });
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The unmeasured load before each case: a running service has compiled its hot paths long since. */
const WARM_UP_SECONDS = 1;

/**
 * One case the way the issue measures it: the node:http baseline loaded just before and just
 * after the subject, so drift of the shared machine during the case shows in the ratio's
 * denominator (the mean of the two) instead of in the figure. The subject is loaded for a second
 * first, unmeasured, so its figure is of compiled code rather than of V8 warming up.
 */
export async function bracketed(
  baselineUrl: string,
  name: string,
  options: LoadOptions,
): Promise<[Measurement, Measurement]> {
  await load(`${name} (warm-up)`, { ...options, seconds: WARM_UP_SECONDS });
  const before = await load('node:http baseline', { url: `${baselineUrl}/` });
  const measured = await load(name, options);
  const after = await load('node:http baseline', { url: `${baselineUrl}/` });
  const mean = (a: number, b: number) => (a + b) / 2;
  const baseline: Measurement = {
    name: `node:http baseline (before ${before.requestsPerSecond.toFixed(0)}, after ${after.requestsPerSecond.toFixed(0)})`,
    requestsPerSecond: mean(before.requestsPerSecond, after.requestsPerSecond),
    p50: mean(before.p50, after.p50),
    p99: mean(before.p99, after.p99),
    errors: before.errors + after.errors,
  };
  return [measured, baseline];
}

export interface Client {
  actor: Actor;
  token: string;
  treeId: string;
  taskId: string;
}

/**
 * Many users, each with many personal tokens and a tree holding a task: one entry per token.
 * Loads rotate through them, so the real limit of 600 requests a minute per token applies to
 * each one and no load is one token's.
 */
export async function population(
  server: BenchServer,
  users = 25,
  tokensPerUser = 20,
  plan: PlanName = 'sprout',
): Promise<Client[]> {
  const deps = server.app.deps;
  const clients: Client[] = [];
  for (let u = 0; u < users; u++) {
    const { actor, token } = await makeAgent(server, plan);
    const tree = await createTree(deps, actor, { name: `Client tree ${u}` });
    const task = await createTask(deps, actor, {
      tree_id: tree.id,
      title: `Water the roses ${u}`,
      notes: 'twice a week in summer',
    });
    const tokens = [token];
    while (tokens.length < tokensPerUser)
      tokens.push((await createToken(deps, actor, { name: `client ${tokens.length}` })).value);
    for (const value of tokens) clients.push({ actor, token: value, treeId: tree.id, taskId: task.id });
  }
  return clients;
}

/**
 * Loads a baseline and a subject in turn, `rounds` times each, and keeps each one's median run:
 * on a shared 2-core machine the baseline alone drifts by 10 % and more between minutes, and
 * alternating keeps both measured under the same conditions.
 */
export async function alternate(
  baseline: [string, LoadOptions],
  subject: [string, LoadOptions],
  rounds = 3,
): Promise<[Measurement, Measurement]> {
  const runs: [Measurement[], Measurement[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    runs[0].push(await load(...baseline));
    runs[1].push(await load(...subject));
  }
  const median = (all: Measurement[]) =>
    [...all].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(all.length / 2)]!;
  const [base, measured] = [median(runs[0]), median(runs[1])];
  return [
    { ...base, name: `${base.name} (median of ${rounds})` },
    { ...measured, name: `${measured.name} (median of ${rounds}, alternating)` },
  ];
}

/** Times an async operation `runs` times in a row; latencies in milliseconds. */
export async function time(name: string, runs: number, work: () => Promise<unknown>): Promise<Measurement> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work();
    samples.push(performance.now() - t0);
  }
  const total = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { name, requestsPerSecond: runs / total, p50: at(0.5), p99: at(0.99), errors: 0 };
}

const rows: string[] = [];

/** Prints one table row; `baseline` gives the ratio column. */
export function report(m: Measurement, baseline?: Measurement, note = ''): void {
  const ratio = baseline ? (m.requestsPerSecond / baseline.requestsPerSecond).toFixed(2) : '';
  const row = `| ${m.name} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${ratio} | ${m.errors} | ${note} |`;
  rows.push(row);
  console.log(row);
}

export function printHeader(title: string): void {
  console.log(`\n### ${title}\n`);
  console.log('| measurement | req/s | p50 ms | p99 ms | × baseline | errors | note |');
  console.log('|---|---|---|---|---|---|---|');
}

export function reportedRows(): string[] {
  return rows;
}
