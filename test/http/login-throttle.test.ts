import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { browserAt, CLIENT_HEADER, type ClientAt, startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';
import { makeUser, PASSWORD, uniqueEmail, type Person } from '../helpers/factories.js';
import { browserFetch, hiddenFields } from '../helpers/oauth.js';
import type { Answer } from '../helpers/client.js';

/** In memory always; in Redis too when TEST_REDIS_URL is set (the limiter instances share). */
const limiters: [string, Record<string, string>][] = [
  ['memory', {}],
  ...(process.env.TEST_REDIS_URL
    ? [['redis', { REDIS_URL: process.env.TEST_REDIS_URL }] as [string, Record<string, string>]]
    : []),
];
const cases = databases.flatMap((kind) => limiters.map(([limiter, env]) => ({ kind, limiter, env })));

const WRONG = 'wrong password!';

function statuses(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** CONTRACT §1's body of a refused sign-in, with its Retry-After. */
function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({
    error: {
      code: 'rate_limited',
      message: expect.any(String),
      details: [{ retry_after: expect.any(Number) }],
      request_id: expect.any(String),
    },
  });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/**
 * Every client comes through a real reverse proxy with an address of its own (TRUST_PROXY names
 * the proxy), fresh for each run: Redis keeps its counters between runs.
 */
describe.each(cases)('login throttling ($kind, limiter in $limiter)', ({ kind, env }) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let proxy: HttpProxy;
  beforeAll(async () => {
    t = await startTestApp(kind, { TRUST_PROXY: '127.0.0.1', ...env });
    proxy = await startHttpProxy(t.url);
  });
  afterAll(async () => {
    await proxy.close();
    await t.stop();
  });

  const fromNewAddress = () => browserAt(proxy.url);
  const login = (browser: ClientAt, email: string, password: string) =>
    browser.post('/api/v1/auth/login', { email, password });
  const burst = (browser: ClientAt, email: string, count: number) =>
    Array.from({ length: count }, () => login(browser, email, WRONG));

  it('checks at most 10 of 20 parallel attempts for one email from one address; the rest answer 429', async () => {
    const person = await makeUser(t.url);
    const browser = await fromNewAddress();
    const answers = await Promise.all(burst(browser, person.email, 20));
    expect(statuses(answers)).toEqual({ 401: 10, 429: 10 });
    for (const answer of answers.filter((a) => a.status === 429)) expectRateLimited(answer);
    expectRateLimited(await login(browser, person.email, PASSWORD));
  });

  it('checks at most 10 failures of 40 parallel attempts, the right password among them', async () => {
    const person = await makeUser(t.url);
    const browser = await fromNewAddress();
    const attempts = burst(browser, person.email, 39);
    const right = login(browser, person.email, PASSWORD);
    const answers = await Promise.all(attempts);
    const counts = statuses(answers);
    expect(counts[401]).toBeLessThanOrEqual(10);
    expect(counts[401]! + counts[429]!).toBe(39);
    // It signs in only if its slot was among the first ten taken; then it gave the slot back.
    expect([200, 429]).toContain((await right).status);
  });

  it('refuses the right password once a parallel burst has taken every slot', async () => {
    const person = await makeUser(t.url);
    const browser = await fromNewAddress();
    const attempts = burst(browser, person.email, 40);
    // The first 429 proves all ten slots are held, by failures or checks still running.
    await new Promise<void>((resolve) => {
      for (const attempt of attempts) void attempt.then((answer) => answer.status === 429 && resolve());
      void Promise.all(attempts).then(() => resolve());
    });
    const right = await login(browser, person.email, PASSWORD);
    expect(statuses(await Promise.all(attempts))).toEqual({ 401: 10, 429: 30 });
    expectRateLimited(right);
  });

  it('never locks a right password out from an address that has not failed, whatever failed elsewhere', async () => {
    const person = await makeUser(t.url);
    const failed: ClientAt[] = [];
    for (let i = 0; i < 3; i++) {
      const browser = await fromNewAddress();
      expect(statuses(await Promise.all(burst(browser, person.email, 10)))).toEqual({ 401: 10 });
      failed.push(browser);
    }
    expectRateLimited(await login(failed[0]!, person.email, PASSWORD));
    // 30 failures for the email slow its sign-ins (loginDelayMs), but never stop them.
    const fresh = await login(await fromNewAddress(), person.email, PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.id).toBe(person.user.id);
  });

  it('limits failures to 50 per address, whatever the emails; other addresses keep signing in', async () => {
    const person = await makeUser(t.url);
    const browser = await fromNewAddress();
    for (let i = 0; i < 5; i++)
      expect(statuses(await Promise.all(burst(browser, uniqueEmail('nobody'), 10)))).toEqual({ 401: 10 });
    expectRateLimited(await login(browser, uniqueEmail('nobody'), WRONG));
    expectRateLimited(await login(browser, person.email, PASSWORD));
    expect((await login(await fromNewAddress(), uniqueEmail('nobody'), WRONG)).status).toBe(401);
    expect((await login(await fromNewAddress(), person.email, PASSWORD)).status).toBe(200);
  });

  it('does not count sign-ins that succeed', async () => {
    const person = await makeUser(t.url);
    const browser = await fromNewAddress();
    for (let i = 0; i < 12; i++) expect((await login(browser, person.email, PASSWORD)).status).toBe(200);
    expect(statuses(await Promise.all(burst(browser, person.email, 10)))).toEqual({ 401: 10 });
  });

  it('counts the OAuth /login page under the same limits as the API', async () => {
    const person: Person = await makeUser(t.url);
    const browser = await fromNewAddress();
    expect(statuses(await Promise.all(burst(browser, person.email, 10)))).toEqual({ 401: 10 });
    const headers = { [CLIENT_HEADER]: browser.address };
    const page = await browserFetch(browser, '/login', { headers });
    const refused = await browserFetch(browser, '/login', {
      method: 'POST',
      headers,
      form: { ...hiddenFields(page.text), email: person.email, password: PASSWORD },
    });
    expect(refused.status).toBe(429);
    const elsewhere = await fromNewAddress();
    const fresh = await browserFetch(elsewhere, '/login', { headers: { [CLIENT_HEADER]: elsewhere.address } });
    const signedIn = await browserFetch(elsewhere, '/login', {
      method: 'POST',
      headers: { [CLIENT_HEADER]: elsewhere.address },
      form: { ...hiddenFields(fresh.text), email: person.email, password: PASSWORD },
    });
    expect(signedIn.status).toBe(303);
  });
});
