import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { browserAt, ClientAt, randomClientAddress, startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';
import { makeUser, PASSWORD, uniqueEmail } from '../helpers/factories.js';

interface BehindProxy {
  t: Awaited<ReturnType<typeof startTestApp>>;
  proxy: HttpProxy;
  /** A client at `address` (a fresh one by default) without a session. */
  client(address?: string): ClientAt;
  /** A client with a browser session (for sign-ins). */
  browser(address?: string): Promise<ClientAt>;
}

/** The app behind a real reverse proxy on loopback (which sets X-Forwarded-For and -Proto), started with `trustProxy` as TRUST_PROXY. */
function behindProxy(kind: (typeof databases)[number], trustProxy: string | null) {
  const state = {} as BehindProxy;
  beforeAll(async () => {
    state.t = await startTestApp(kind, trustProxy === null ? {} : { TRUST_PROXY: trustProxy });
    state.proxy = await startHttpProxy(state.t.url, { proto: 'https' });
    state.client = (address = randomClientAddress()) => new ClientAt(state.proxy.url, address);
    state.browser = (address) => browserAt(state.proxy.url, address);
  });
  afterAll(async () => {
    await state.proxy.close();
    await state.t.stop();
  });
  return state;
}

/** What is left of the anonymous per-address budget after one more request from `client`. */
async function anonymousRemaining(client: ClientAt): Promise<number> {
  const answer = await client.get('/api/v1/auth/me');
  expect(answer.status).toBe(200);
  expect(answer.body.user).toBeNull();
  return Number(answer.headers.get('ratelimit-remaining'));
}

/** 50 wrong passwords from the browser `client`, 10 for each of five emails: the per-address limit. */
async function failFiftyTimes(client: ClientAt): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const email = uniqueEmail('nobody');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/api/v1/auth/login', { email, password: 'wrong password!' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
  }
  const next = await client.post('/api/v1/auth/login', { email: uniqueEmail('nobody'), password: 'wrong password!' });
  expect(next.status).toBe(429);
  expect(next.body.error.code).toBe('rate_limited');
}

/** The answer to a right password from one client behind the proxy once another has failed 50 times. */
async function signInAfterAnotherFailed(s: BehindProxy): Promise<number> {
  const person = await makeUser(s.t.url);
  await failFiftyTimes(await s.browser());
  return (await (await s.browser()).post('/api/v1/auth/login', { email: person.email, password: PASSWORD })).status;
}

/** The anonymous budget left to two clients behind the proxy after one request each. */
async function budgetsOfTwoClients(s: BehindProxy): Promise<[number, number]> {
  return [await anonymousRemaining(s.client()), await anonymousRemaining(s.client())];
}

describe.each(databases)('TRUST_PROXY behind a reverse proxy (%s)', (kind) => {
  describe('set to the proxy’s address', () => {
    const s = behindProxy(kind, '127.0.0.1');

    it('gives each client behind the proxy its own anonymous budget', async () => {
      expect(await budgetsOfTwoClients(s)).toEqual([599, 599]);
      const one = s.client();
      expect([await anonymousRemaining(one), await anonymousRemaining(one)]).toEqual([599, 598]);
    });

    it('keeps one client’s failed sign-ins from locking out another', async () => {
      expect(await signInAfterAnotherFailed(s)).toBe(200);
    });

    it('takes the session cookie’s Secure flag from PUBLIC_URL, not from X-Forwarded-Proto', async () => {
      const answer = await fetch(`${s.proxy.url}/api/v1/auth/me`);
      expect(answer.headers.getSetCookie()[0]).not.toMatch(/Secure/i);
    });
  });

  describe('set to a hop count', () => {
    const s = behindProxy(kind, '1');

    it('believes one hop of X-Forwarded-For', async () => {
      expect(await budgetsOfTwoClients(s)).toEqual([599, 599]);
    });
  });

  describe('unset', () => {
    const s = behindProxy(kind, null);

    it('ignores X-Forwarded-For: every client is the proxy’s address', async () => {
      const [first, second] = await budgetsOfTwoClients(s);
      expect(second).toBe(first - 1);
    });

    it('so one client’s failed sign-ins lock out everyone behind the proxy', async () => {
      expect(await signInAfterAnotherFailed(s)).toBe(429);
    });
  });

  describe('naming another address than the proxy’s', () => {
    const s = behindProxy(kind, '192.0.2.1, 10.0.0.0/8');

    it('ignores the forwarded headers of an untrusted sender', async () => {
      const [first, second] = await budgetsOfTwoClients(s);
      expect(second).toBe(first - 1);
    });
  });
});
