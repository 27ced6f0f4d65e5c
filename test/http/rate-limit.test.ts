import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, startTestApp, type Running, type TestEnv } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeToken, makeUser } from '../helpers/factories.js';

async function spend(client: Client, count: number): Promise<void> {
  for (let i = 0; i < count; i += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, () => client.get('/api/v1/auth/me')),
    );
    for (const a of answers) expect(a.status).toBe(200);
  }
}

describe.each(databases)('rate limit in memory (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('allows 600 requests a minute per token, then 429 with Retry-After', async () => {
    const person = await makeUser(t.url);
    const { agent } = await makeToken(person);
    const first = await agent.get('/api/v1/auth/me');
    expect(first.headers.get('ratelimit-limit')).toBe('600');
    expect(first.headers.get('ratelimit-remaining')).toBe('599');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    await spend(agent, 599);
    const limited = await agent.get('/api/v1/auth/me');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    // Another token of the same person has its own budget; so does the browser session.
    expect((await (await makeToken(person)).agent.get('/api/v1/auth/me')).status).toBe(200);
    expect((await person.browser.get('/api/v1/auth/me')).status).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('rate limit shared through Redis', () => {
  let env: TestEnv;
  let one: Running;
  let two: Running;
  beforeAll(async () => {
    env = makeTestEnv('sqlite', { REDIS_URL: process.env.TEST_REDIS_URL! });
    one = await startApp(env);
    two = await startApp(env);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await env.dispose();
  });

  it('gives two instances one budget per token', async () => {
    const person = await makeUser(one.url);
    const { value } = await makeToken(person);
    const viaOne = new Client(one.url).withBearer(value);
    const viaTwo = new Client(two.url).withBearer(value);
    await spend(viaOne, 300);
    await spend(viaTwo, 300);
    const limited = await viaOne.get('/api/v1/auth/me');
    expect(limited.status).toBe(429);
    expect((await viaTwo.get('/api/v1/auth/me')).status).toBe(429);
  });
});
