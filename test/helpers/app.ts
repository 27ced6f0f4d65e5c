import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.js';
import { createApp, type App } from '../../src/app.js';

/**
 * Inside a vitest run, the prefix of its PostgreSQL schemas: the run drops them all when it ends
 * (schemas-teardown.ts), so no file drops one while another migrates. Outside vitest (npm run
 * fuzz), each env drops its own schema.
 */
const schemaRun = process.env.VITEST ? (await import('vitest')).inject('testSchemaRun') : undefined;

export type DatabaseKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const databases: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestEnv {
  kind: DatabaseKind;
  dataDir: string;
  /** Set for PostgreSQL: the schema this environment owns. */
  schema: string | null;
  config: Config;
  dispose(): Promise<void>;
}

/**
 * A private place to run an app: a temp DATA_DIR and, on PostgreSQL, a schema of its own, so
 * test files never trip over each other. Several apps may share one env (restart, two instances).
 */
export function makeTestEnv(kind: DatabaseKind, overrides: Record<string, string> = {}): TestEnv {
  const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-test-'));
  const schema = kind === 'postgres' ? `${schemaRun ?? 't'}_${randomBytes(6).toString('hex')}` : null;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SECRET: 'test-secret-0123456789abcdef',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATABASE_SCHEMA: schema! } : {}),
    ...overrides,
  });
  return {
    kind,
    dataDir,
    schema,
    config,
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
      if (schema !== null && schemaRun === undefined) {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        } finally {
          await client.end();
        }
      }
    },
  };
}

export interface Running {
  app: App;
  url: string;
  close(): Promise<void>;
}

/** Starts the real app on a real loopback socket. */
export async function startApp(env: TestEnv, configOverrides: Partial<Config> = {}): Promise<Running> {
  const app = await createApp({ ...env.config, ...configOverrides });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  return { app, url, close: () => app.close() };
}

/** One env and one running app for a test file; `stop` disposes both. */
export async function startTestApp(kind: DatabaseKind, overrides: Record<string, string> = {}) {
  const env = makeTestEnv(kind, overrides);
  const running = await startApp(env);
  return {
    ...running,
    env,
    async stop() {
      await running.close();
      await env.dispose();
    },
  };
}
