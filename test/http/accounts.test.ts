import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeToken, makeUser, PASSWORD, uniqueEmail } from '../helpers/factories.js';

describe.each(databases)('accounts and sessions (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  async function browser(): Promise<Client> {
    const client = new Client(t.url);
    await client.get('/api/v1/auth/me');
    return client;
  }

  it('bootstraps an anonymous session with a CSRF value and a safe cookie', async () => {
    const response = await fetch(`${t.url}/api/v1/auth/me`);
    const body = await response.json();
    expect(body).toEqual({ user: null, csrf: expect.any(String) });
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^tt_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
  });

  it('registers, rotating the session id and the CSRF value', async () => {
    const client = await browser();
    const before = { cookie: client.cookies.get('tt_session'), csrf: client.csrf };
    const email = uniqueEmail();
    const answer = await client.post('/api/v1/auth/register', {
      email,
      password: PASSWORD,
      name: 'Ada',
      language: 'ru',
      timezone: 'europe/berlin',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.user).toEqual({
      id: expect.stringMatching(/^usr_/),
      email,
      name: 'Ada',
      language: 'ru',
      timezone: 'Europe/Berlin',
      plan: 'seed',
      plan_expires_at: null,
      effective_plan: 'seed',
      email_verified: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(client.cookies.get('tt_session')).not.toBe(before.cookie);
    expect(answer.body.csrf).not.toBe(before.csrf);
    expect((await client.get('/api/v1/auth/me')).body.user.email).toBe(email);
    const stale = await client.patch(
      '/api/v1/auth/profile',
      { name: 'x' },
      { headers: { 'x-csrf-token': before.csrf! } },
    );
    expect(stale.body.error.code).toBe('csrf_failed');
    const again = await (
      await browser()
    ).post('/api/v1/auth/register', { email: email.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect(again.body.error.details).toEqual([{ path: '/email', message: 'is taken', reason: 'email_in_use' }]);
  });

  it('enforces every registration boundary', async () => {
    const client = await browser();
    const cases: [Record<string, unknown>, string][] = [
      [{ password: 'x'.repeat(9) }, '/password'],
      [{ password: 'x'.repeat(1025) }, '/password'],
      [{ language: 'de' }, '/language'],
      [{ timezone: 'Mars/Olympus' }, '/timezone'],
      [{ timezone: 'UTC+3' }, '/timezone'],
      [{ name: 'n'.repeat(121) }, '/name'],
      [{ email: 'not-an-email' }, '/email'],
      [{ admin: true }, ''],
    ];
    for (const [patch, path] of cases) {
      const answer = await client.post('/api/v1/auth/register', { email: uniqueEmail(), password: PASSWORD, ...patch });
      expect(answer.status, JSON.stringify(patch).slice(0, 50)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      if (path !== '') expect(JSON.stringify(answer.body.error.details)).toContain(path);
    }
    const edge = await client.post('/api/v1/auth/register', {
      email: uniqueEmail(),
      password: 'p'.repeat(1024),
      name: 'n'.repeat(120),
    });
    expect(edge.status).toBe(201);
    expect(
      (await (await browser()).post('/api/v1/auth/register', { email: uniqueEmail(), password: 'p'.repeat(10) }))
        .status,
    ).toBe(201);
  });

  it('logs in and out, with uniform failures and length rules on the login password too', async () => {
    const person = await makeUser(t.url);
    const client = await browser();
    for (const password of ['x'.repeat(9), 'x'.repeat(1025)]) {
      const answer = await client.post('/api/v1/auth/login', { email: person.email, password });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    const wrong = await client.post('/api/v1/auth/login', { email: person.email, password: 'wrong password!' });
    const unknown = await client.post('/api/v1/auth/login', { email: uniqueEmail(), password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.body.error.code).toBe('unauthenticated');
    const session = client.cookies.get('tt_session');
    const ok = await client.post('/api/v1/auth/login', { email: person.email, password: PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user: expect.objectContaining({ id: person.user.id }), csrf: expect.any(String) });
    expect(client.cookies.get('tt_session')).not.toBe(session);
    const signedIn = client.cookies.get('tt_session');
    const out = await client.post('/api/v1/auth/logout');
    expect(out.body).toEqual({ user: null, csrf: expect.any(String) });
    const replay = new Client(t.url);
    replay.cookies.set('tt_session', signedIn!);
    expect((await replay.get('/api/v1/auth/me')).body.user).toBeNull();
  });

  it('throttles failed logins per email', async () => {
    const person = await makeUser(t.url);
    const client = await browser();
    for (let i = 0; i < 10; i++)
      expect(
        (await client.post('/api/v1/auth/login', { email: person.email, password: 'wrong password!' })).status,
      ).toBe(401);
    const blocked = await client.post('/api/v1/auth/login', { email: person.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('changes the profile from a browser session only', async () => {
    const person = await makeUser(t.url);
    const changed = await person.browser.patch('/api/v1/auth/profile', {
      name: 'New',
      language: 'ru',
      timezone: 'Asia/Tokyo',
    });
    expect(changed.body.user).toMatchObject({ name: 'New', language: 'ru', timezone: 'Asia/Tokyo' });
    expect((await person.browser.patch('/api/v1/auth/profile', { timezone: 'Nowhere/Land' })).status).toBe(400);
    // Current IANA names are stored as sent; the old aliases are still taken, and stored by their current names.
    for (const [sent, stored] of [
      ['Europe/Kyiv', 'Europe/Kyiv'],
      ['Europe/Kiev', 'Europe/Kyiv'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Asia/Calcutta', 'Asia/Kolkata'],
      ['asia/ho_chi_minh', 'Asia/Ho_Chi_Minh'],
    ]) {
      const zone = await person.browser.patch('/api/v1/auth/profile', { timezone: sent });
      expect(zone.body.user?.timezone, sent).toBe(stored);
    }
    expect((await person.browser.patch('/api/v1/auth/profile', { name: 'n'.repeat(121) })).status).toBe(400);
    const { agent } = await makeToken(person);
    const bearer = await agent.patch('/api/v1/auth/profile', { name: 'Agent' });
    expect(bearer.status).toBe(403);
    expect(bearer.body.error.code).toBe('session_required');
    expect((await agent.get('/api/v1/auth/me')).body).toEqual({ user: expect.objectContaining({ name: 'New' }) });
  });

  it('queues password reset requests without revealing accounts', async () => {
    const person = await makeUser(t.url);
    const client = await browser();
    for (const email of [person.email, uniqueEmail()]) {
      const answer = await client.post('/api/v1/auth/reset/request', { email });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ status: 'queued', delivery: 'not_configured' });
    }
  });
});
