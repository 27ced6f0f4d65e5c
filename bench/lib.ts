import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createApp, type App } from '../src/app.js';
import { registerUser, setUserPlan } from '../src/domain/accounts/accounts.js';
import { userActor, type Actor } from '../src/domain/actor.js';
import { createToken } from '../src/domain/agents/tokens.js';
import type { PlanName } from '../src/domain/plans.js';

/** How long each load runs; BENCH_SECONDS=10 for steadier figures. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

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
  close(): Promise<void>;
}

/** The real service on a fresh DATA_DIR (or, with DATABASE_URL, in a fresh PostgreSQL schema). */
export async function startServer(kind: 'sqlite' | 'postgres' = 'sqlite', extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-bench-'));
  const schema = kind === 'postgres' ? `bench_${randomBytes(4).toString('hex')}` : null;
  const config = loadConfig({
    DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', SECRET: 'bench-secret-0123456789',
    // The limiter still counts every request; only its ceiling is raised so loads measure answers, not 429s.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...(schema !== null ? { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
    ...extraEnv,
  });
  const app = await createApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    app,
    kind,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (schema !== null) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

/** The databases to measure: SQLite always, PostgreSQL too when DATABASE_URL is set. */
export function benchDatabases(): ('sqlite' | 'postgres')[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A user on the given plan with a personal token holding every scope the plan allows. */
export async function makeAgent(server: BenchServer, plan: PlanName = 'grove'): Promise<{ actor: Actor; token: string }> {
  const deps = server.app.deps;
  const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
  await registerUser(deps, { email, password: 'bench password 123' });
  const user = await setUserPlan(deps, email, plan, null);
  const actor = userActor(user, 'cli');
  const { value } = await createToken(deps, actor, { name: 'bench' });
  return { actor, token: value };
}

/** A bare Fastify server answering a small JSON document: the ceiling of any route. */
export async function startBaseline(setup?: (app: FastifyInstance) => void): Promise<{ url: string; close(): Promise<void> }> {
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
  body?: string | ((i: number) => string);
  expectStatus?: number;
  seconds?: number;
  connections?: number;
}

/** Runs autocannon against one endpoint and reports throughput and latency. */
export async function load(name: string, options: LoadOptions): Promise<Measurement> {
  let counter = 0;
  const body = options.body;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    connections: options.connections ?? CONNECTIONS,
    // The load runs in a worker thread, so it does not share the server's event loop.
    workers: typeof body === 'function' ? undefined : 1,
    duration: options.seconds ?? SECONDS,
    ...(typeof body === 'function'
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: body(counter++) }) }] }
      : body !== undefined ? { body } : {}),
  });
  const expected = options.expectStatus ?? 200;
  const wrong = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== expected).reduce((n, [, s]) => n + (s as { count: number }).count, 0);
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + wrong - (expected >= 300 ? result.non2xx : 0) };
}

/**
 * Loads a baseline and a subject in turn, `rounds` times each, and keeps each one's median run:
 * on a shared 2-core machine the baseline alone drifts by 10 % and more between minutes, and
 * alternating keeps both measured under the same conditions.
 */
export async function alternate(baseline: [string, LoadOptions], subject: [string, LoadOptions], rounds = 3): Promise<[Measurement, Measurement]> {
  const runs: [Measurement[], Measurement[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    runs[0].push(await load(...baseline));
    runs[1].push(await load(...subject));
  }
  const median = (all: Measurement[]) => [...all].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(all.length / 2)]!;
  const [base, measured] = [median(runs[0]), median(runs[1])];
  return [{ ...base, name: `${base.name} (median of ${rounds})` }, { ...measured, name: `${measured.name} (median of ${rounds}, alternating)` }];
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
