import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const redisUrl = process.env.TEST_REDIS_URL;
const databaseUrl = process.env.TEST_DATABASE_URL;

async function readiness(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: await response.json() };
}

/** Polls until /readyz answers `status` (a reconnect takes a moment); fails after 20 s. */
async function readinessBecomes(url: string, status: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await readiness(url);
    if (answer.status === status) return;
    if (Date.now() > deadline) throw new Error(`/readyz stayed ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `url` with its host and port replaced by the proxy's. */
function through(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}

function targetOf(url: string, defaultPort: number) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port === '' ? defaultPort : Number(parsed.port) };
}

describe('readiness with an unreachable Redis', () => {
  let env: TestEnv;
  let app: Running;
  let proxy: TcpProxy;
  beforeAll(async () => {
    // A port where nothing listens: the proxy, cut before the app ever connects.
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 1 });
    await proxy.cut();
    env = makeTestEnv('sqlite', { REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    app = await startApp(env);
  });
  afterAll(async () => {
    await app.close();
    await env.dispose();
  });

  it('is 503 while the process stays alive', async () => {
    expect(await readiness(app.url)).toEqual({ status: 503, body: { status: 'unavailable' } });
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it('loads the Redis limiter because REDIS_URL is set, with a reporter for its lost connection', () => {
    expect(app.app.deps.limiter.constructor.name).toBe('RedisRateLimiter');
    expect(app.app.deps.limiter.onError).toBeTypeOf('function');
  });
});

describe.skipIf(!redisUrl)('readiness follows Redis going away and coming back', () => {
  let env: TestEnv;
  let app: Running;
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(targetOf(redisUrl!, 6379));
    env = makeTestEnv('sqlite', { REDIS_URL: through(redisUrl!, proxy) });
    app = await startApp(env);
  });
  afterAll(async () => {
    await app.close();
    await proxy.close();
    await env.dispose();
  });

  it('is 200, then 503 once Redis is cut off, then 200 again', async () => {
    await readinessBecomes(app.url, 200);
    await proxy.cut();
    expect((await readiness(app.url)).status).toBe(503);
    await proxy.restore();
    await readinessBecomes(app.url, 200);
  });
});

describe.skipIf(!databaseUrl)('readiness follows PostgreSQL going away and coming back', () => {
  let env: TestEnv;
  let app: Running;
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(targetOf(databaseUrl!, 5432));
    env = makeTestEnv('postgres', { DATABASE_URL: through(databaseUrl!, proxy) });
    app = await startApp(env);
  });
  afterAll(async () => {
    await app.close();
    await proxy.close();
    await env.dispose();
  });

  it('is 200, then 503 once the database is cut off (the process survives its pool losing every connection), then 200 again', async () => {
    expect(await readiness(app.url)).toEqual({ status: 200, body: { status: 'ready' } });
    await proxy.cut();
    expect(await readiness(app.url)).toEqual({ status: 503, body: { status: 'unavailable' } });
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    await proxy.restore();
    await readinessBecomes(app.url, 200);
  });
});
