import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { sha256 } from '../../src/domain/crypto.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

describe.each(databases)('personal tokens (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('shows the value once and stores only its hash', async () => {
    const person = await makeUser(t.url);
    const { token, value } = await makeToken(person, { name: 'laptop' });
    expect(token).toEqual({
      id: expect.stringMatching(/^pat_/),
      name: 'laptop',
      scopes: ['read', 'attachments'],
      prefix: value.slice(0, 8),
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
      status: 'active',
      tree_ids: null,
    });
    expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(90 * 86_400_000);
    const listed = await person.browser.get('/api/v1/tokens');
    expect(listed.text).not.toContain(value);
    expect(listed.body.items[0]).toMatchObject({ id: token.id, status: 'active' });
    const row = await t.app.deps.db
      .selectFrom('personal_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(value));
    expect(JSON.stringify(row)).not.toContain(value.slice(8));
  });

  it('follows the plan for scopes', async () => {
    const seed = await makeUser(t.url);
    const refused = await seed.browser.post('/api/v1/tokens', { name: 'w', scopes: ['read', 'write'] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('plan_read_only');
    const sprout = await makeUser(t.url, t.app, { plan: 'sprout' });
    expect((await makeToken(sprout)).token.scopes).toEqual(['read', 'write', 'attachments']);
    expect((await makeToken(sprout, { scopes: ['attachments', 'read'] })).token.scopes).toEqual([
      'read',
      'attachments',
    ]);
    for (const scopes of [[], ['admin'], ['read', 'read']]) {
      expect((await sprout.browser.post('/api/v1/tokens', { name: 'x', scopes })).status, JSON.stringify(scopes)).toBe(
        400,
      );
    }
  });

  it('accepts only the lifetime choices', async () => {
    const person = await makeUser(t.url);
    for (const days of [1, 7, 30, 90, 365]) {
      const { token } = await makeToken(person, { expires_in_days: days });
      expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(days * 86_400_000);
    }
    for (const days of [0, 2, 366, '7']) {
      expect((await person.browser.post('/api/v1/tokens', { name: 'x', expires_in_days: days })).status).toBe(400);
    }
    for (const name of ['', 'n'.repeat(81)])
      expect((await person.browser.post('/api/v1/tokens', { name })).status).toBe(400);
  });

  it('is managed from a browser session only', async () => {
    const person = await makeUser(t.url);
    const { agent, token } = await makeToken(person);
    for (const answer of [
      await agent.get('/api/v1/tokens'),
      await agent.post('/api/v1/tokens', { name: 'x' }),
      await agent.delete(`/api/v1/tokens/${token.id}`),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('session_required');
    }
    const noCsrf = await person.browser.post(
      '/api/v1/tokens',
      { name: 'x' },
      { headers: { 'x-csrf-token': 'forged' } },
    );
    expect(noCsrf.body.error.code).toBe('csrf_failed');
  });

  it('ends a token at once on revoke and on expiry', async () => {
    const person = await makeUser(t.url);
    const { agent, token } = await makeToken(person);
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    expect((await person.browser.delete(`/api/v1/tokens/${token.id}`)).body).toEqual({ ok: true });
    const after = await agent.get('/api/v1/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthenticated');
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await person.browser.get('/api/v1/tokens')).body.items[0]).toMatchObject({
      id: token.id,
      status: 'revoked',
    });
    const other = await makeUser(t.url);
    expect((await other.browser.delete(`/api/v1/tokens/${token.id}`)).status).toBe(404);
    const second = await makeToken(person);
    await t.app.deps.db
      .updateTable('personal_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', second.token.id)
      .execute();
    expect((await second.agent.get('/api/v1/trees')).status).toBe(401);
  });

  it('sees a profile change, a plan change and expiry at once while its lookup is cached', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent, value } = await makeToken(person, { scopes: ['read', 'write'] });
    expect((await agent.get('/api/v1/auth/me')).body.user.name).toBe(person.user.name);
    // Kept only on the embedded store: PostgreSQL deployments may run many instances.
    expect(t.app.deps.credentials.get(sha256(value)) !== undefined).toBe(kind === 'sqlite');

    expect((await person.browser.patch('/api/v1/auth/profile', { name: 'Renamed' })).status).toBe(200);
    expect((await agent.get('/api/v1/auth/me')).body.user.name).toBe('Renamed');

    expect((await agent.post('/api/v1/trees', { name: 'before' })).status).toBe(201);
    await setUserPlan(t.app.deps, person.email, 'seed', null);
    const refused = await agent.post('/api/v1/trees', { name: 'after' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('plan_read_only');
  });

  it('records its last use at most once a minute, across fresh lookups', async () => {
    const person = await makeUser(t.url);
    const { agent, token } = await makeToken(person);
    const lastUsed = async () =>
      (
        await t.app.deps.db
          .selectFrom('personal_tokens')
          .select('last_used_at')
          .where('id', '=', token.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    const before = Date.now();
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    // The use is recorded after the answer, without holding it up.
    await expect.poll(lastUsed).not.toBeNull();
    const first = (await lastUsed())!;
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1);
    // A fresh lookup reads the recorded use, so it is not written again within the minute.
    t.app.deps.credentials.clear();
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastUsed()).toBe(first);
    // A minute later the next use is recorded.
    const aMinuteAgo = new Date(Date.parse(first) - 61_000).toISOString();
    await t.app.deps.db
      .updateTable('personal_tokens')
      .set({ last_used_at: aMinuteAgo })
      .where('id', '=', token.id)
      .execute();
    t.app.deps.credentials.clear();
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    await expect.poll(async () => Date.parse((await lastUsed())!)).toBeGreaterThan(Date.parse(aMinuteAgo));
  });

  it('ends a token whose lookup is cached when it expires', async () => {
    const person = await makeUser(t.url);
    const { agent, token } = await makeToken(person);
    // Due to expire within the cache's second: the entry must not outlive the token.
    const expiresAt = new Date(Date.now() + 300).toISOString();
    await t.app.deps.db
      .updateTable('personal_tokens')
      .set({ expires_at: expiresAt })
      .where('id', '=', token.id)
      .execute();
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 20));
    expect((await agent.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('keeps at most 20 active tokens, even under 25 concurrent creations', async () => {
    const person = await makeUser(t.url);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => person.browser.post('/api/v1/tokens', { name: `t${i}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.error.code])).toEqual(Array(5).fill([409, 'token_limit_reached']));
    const first = answers.find((a) => a.status === 201)!.body.token;
    await person.browser.delete(`/api/v1/tokens/${first.id}`);
    expect((await person.browser.post('/api/v1/tokens', { name: 'room again' })).status).toBe(201);
  });

  it('refuses Idempotency-Key on creation before creating anything', async () => {
    const person = await makeUser(t.url);
    const answer = await person.browser.post(
      '/api/v1/tokens',
      { name: 'x' },
      { headers: { 'idempotency-key': 'token-key-1', 'x-service-user': person.user.id } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('idempotency_key_not_allowed');
    expect((await person.browser.get('/api/v1/tokens')).body.items).toEqual([]);
  });
});
