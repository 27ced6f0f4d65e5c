import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { Client } from '../helpers/client.js';
import { startFakeSmtp } from '../helpers/fake-smtp.js';
import { initializeMessage, rawMcp } from '../helpers/mcp.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe.each(databases)('password reset (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp(kind, { SMTP_URL: smtp.url, MAIL_FROM: 'Task Tree <reset@tasktree.test>' });
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  async function mailFor(email: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const mail = smtp.mails.find((m) => m.to.includes(email));
      if (mail !== undefined)
        return /POST \/api\/v1\/auth\/reset\/complete: ([A-Za-z0-9_-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no mail for ${email}`);
  }

  async function freshBrowser(): Promise<Client> {
    const browser = new Client(t.url);
    await browser.get('/api/v1/auth/me');
    return browser;
  }

  it('mails a single-use token and answers alike for unknown addresses', async () => {
    const person = await makeUser(t.url, t.app);
    const stranger = uniqueEmail('nobody');
    const browser = await freshBrowser();
    for (const email of [person.email, stranger]) {
      const answer = await browser.post('/api/v1/auth/reset/request', { email });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ status: 'queued', delivery: 'sent' });
    }
    const token = await mailFor(person.email);
    expect(token.length).toBeGreaterThanOrEqual(40);
    // The link opens the browser app's completion page (CONTRACT §15: /reset?token=…).
    const body = smtp.mails
      .find((m) => m.to.includes(person.email))!
      .raw.replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(body).toContain(`/reset?token=${token}`);
    const mail = smtp.mails.find((m) => m.to.includes(person.email))!;
    expect(mail.raw).toContain('From: Task Tree <reset@tasktree.test>');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.mails.some((m) => m.to.includes(stranger))).toBe(false);
    const stored = await t.app.deps.db
      .selectFrom('password_resets')
      .select('token_hash')
      .where('owner_id', '=', person.user.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
  });

  it('sets the password and ends every session, token and MCP session of the account', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person);
    const sessionId = (await rawMcp(t.url, initializeMessage, { authorization: `Bearer ${made.value}` })).headers.get(
      'mcp-session-id',
    )!;
    const otherBrowser = new Client(t.url);
    await otherBrowser.get('/api/v1/auth/me');
    await otherBrowser.post('/api/v1/auth/login', { email: person.email, password: PASSWORD });
    expect((await otherBrowser.get('/api/v1/auth/me')).body.user.id).toBe(person.user.id);

    const browser = await freshBrowser();
    await browser.post('/api/v1/auth/reset/request', { email: person.email });
    const token = await mailFor(person.email);
    const done = await browser.post('/api/v1/auth/reset/complete', { token, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      user: expect.objectContaining({ id: person.user.id, email: person.email }),
      csrf: expect.any(String),
    });
    expect((await browser.get('/api/v1/auth/me')).body.user.id).toBe(person.user.id);

    expect((await made.agent.get('/api/v1/auth/me')).status).toBe(401);
    const mcp = await rawMcp(
      t.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { authorization: `Bearer ${made.value}`, 'mcp-session-id': sessionId },
    );
    expect(mcp.status).toBe(401);
    const row = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('credential_id', '=', made.token.id)
      .executeTakeFirstOrThrow();
    expect(row.ended_at).not.toBeNull();
    expect((await otherBrowser.get('/api/v1/auth/me')).body.user).toBeNull();
    expect((await person.browser.get('/api/v1/auth/me')).body.user).toBeNull();

    const login = await freshBrowser();
    expect((await login.post('/api/v1/auth/login', { email: person.email, password: PASSWORD })).status).toBe(401);
    expect((await login.post('/api/v1/auth/login', { email: person.email, password: NEW_PASSWORD })).status).toBe(200);

    const again = await (
      await freshBrowser()
    ).post('/api/v1/auth/reset/complete', { token, password: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].path).toBe('/token');
  });

  it('refuses unknown and expired tokens and passwords out of bounds, changing nothing', async () => {
    const person = await makeUser(t.url, t.app);
    const browser = await freshBrowser();
    await browser.post('/api/v1/auth/reset/request', { email: person.email });
    const token = await mailFor(person.email);
    for (const body of [
      { token, password: 'short' },
      { token, password: 'x'.repeat(1025) },
      { token: 'not-a-token', password: NEW_PASSWORD },
      { token, password: NEW_PASSWORD, extra: 1 },
      { password: NEW_PASSWORD },
    ]) {
      const answer = await browser.post('/api/v1/auth/reset/complete', body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    await t.app.deps.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('owner_id', '=', person.user.id)
      .execute();
    expect((await browser.post('/api/v1/auth/reset/complete', { token, password: NEW_PASSWORD })).status).toBe(400);
    const login = await freshBrowser();
    expect((await login.post('/api/v1/auth/login', { email: person.email, password: PASSWORD })).status).toBe(200);
    const noCsrf = new Client(t.url);
    expect((await noCsrf.post('/api/v1/auth/reset/complete', { token, password: NEW_PASSWORD })).status).toBe(403);
  });
});
