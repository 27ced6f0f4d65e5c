import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser, PASSWORD } from '../helpers/factories.js';
import { Client } from '../helpers/client.js';
import { connectMcp } from '../helpers/mcp.js';
import { connect, consent, formPost, pkce, register, REDIRECT } from '../helpers/oauth.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { mintResetLink } from '../../src/domain/accounts/password-reset.js';

describe.each(databases)('OAuth tokens, replay, resources, revocation and connections (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let mcp: string;
  let api: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    mcp = `${t.url}/mcp`;
    api = `${t.url}/api/v1`;
  });
  afterAll(async () => t.stop());

  const bearer = (token: string) => new Client(t.url).withBearer(token);

  /** One approved code, not yet exchanged. */
  async function approvedCode(browser: Client, resource: string) {
    const client = await register(t.url);
    const { verifier, challenge } = pkce();
    const code = (await consent(browser, { client_id: client.body.client_id, resource, challenge })).get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.body.client_id as string,
      code_verifier: verifier,
      resource,
    };
    return { clientId: client.body.client_id as string, form };
  }

  it('exchanges a code once for a 1-hour access token and a refresh token, no-store', async () => {
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { form } = await approvedCode(alice.browser, api);
    const answer = await formPost(t.url, '/oauth/token', form);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write attachments' });
    expect(answer.body.access_token).toMatch(/^tto_/);
    expect(answer.body.refresh_token).toMatch(/^ttr_/);
    const stored = await t.app.deps.db.selectFrom('oauth_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(answer.body.access_token);
    const tree = await bearer(answer.body.access_token).post('/api/v1/trees', { name: 'Via OAuth' });
    expect(tree.status).toBe(201);
  });

  it('keeps codes and tokens only as hashes, with their lifetimes: code 60 s, access 1 hour, refresh 30 days', async () => {
    const alice = await makeUser(t.url);
    const { clientId, form } = await approvedCode(alice.browser, api);
    const grant = await t.app.deps.db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    const code = await t.app.deps.db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('grant_id', '=', grant.id)
      .executeTakeFirstOrThrow();
    expect(code.code_hash).not.toContain(form.code);
    expect(Date.parse(code.expires_at) - Date.parse(grant.created_at)).toBe(60_000);
    const answer = (await formPost(t.url, '/oauth/token', form)).body;
    const rows = await t.app.deps.db.selectFrom('oauth_tokens').selectAll().where('grant_id', '=', grant.id).execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(answer.access_token);
    expect(stored).not.toContain(answer.refresh_token);
    const lifetime = (kind: string) =>
      rows.filter((r) => r.kind === kind).map((r) => Date.parse(r.expires_at) - Date.parse(r.created_at));
    expect(lifetime('access')).toEqual([3_600_000]);
    expect(lifetime('refresh')).toEqual([30 * 86_400_000]);
  });

  it('a replayed code is invalid_grant and revokes the grant it made', async () => {
    const alice = await makeUser(t.url);
    const { form } = await approvedCode(alice.browser, api);
    const first = await formPost(t.url, '/oauth/token', form);
    expect(first.status).toBe(200);
    expect((await bearer(first.body.access_token).get('/api/v1/trees')).status).toBe(200);
    const replay = await formPost(t.url, '/oauth/token', form);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'invalid_grant' });
    expect(typeof replay.body.error_description).toBe('string');
    expect((await bearer(first.body.access_token).get('/api/v1/trees')).status).toBe(401);
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: first.body.refresh_token,
          client_id: form.client_id,
        })
      ).body.error,
    ).toBe('invalid_grant');
  });

  it('a replayed code also ends the MCP sessions its grant opened', async () => {
    const alice = await makeUser(t.url);
    const { clientId, form } = await approvedCode(alice.browser, mcp);
    const tokens = (await formPost(t.url, '/oauth/token', form)).body;
    const session = await connectMcp(t.url, tokens.access_token);
    expect((await formPost(t.url, '/oauth/token', form)).body.error).toBe('invalid_grant');
    const grant = await t.app.deps.db
      .selectFrom('oauth_grants')
      .select(['id', 'revoked_at'])
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(grant.revoked_at).not.toBeNull();
    const sessions = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('credential_id', '=', grant.id)
      .execute();
    expect(sessions.length).toBeGreaterThan(0);
    for (const row of sessions) expect(row.ended_at).not.toBeNull();
    await expect(session.client.listTools()).rejects.toThrow();
    await session.close().catch(() => undefined);
  });

  it('a code works only with its own client, redirect URI, resource and PKCE verifier', async () => {
    const alice = await makeUser(t.url);
    const other = await register(t.url);
    const attempts: [string, (f: Record<string, string>) => Record<string, string>, string][] = [
      ['another client', (f) => ({ ...f, client_id: other.body.client_id }), 'invalid_grant'],
      ['another redirect URI', (f) => ({ ...f, redirect_uri: 'http://127.0.0.1:43210/other' }), 'invalid_grant'],
      ['another resource', (f) => ({ ...f, resource: mcp }), 'invalid_target'],
      ['a wrong verifier', (f) => ({ ...f, code_verifier: pkce().verifier }), 'invalid_grant'],
      ['the challenge as verifier (plain)', (f) => ({ ...f, code_verifier: 'x'.repeat(43) }), 'invalid_grant'],
    ];
    for (const [name, change, error] of attempts) {
      const { form } = await approvedCode(alice.browser, api);
      const answer = await formPost(t.url, '/oauth/token', change(form));
      expect(answer.status, name).toBe(400);
      expect(answer.body.error, name).toBe(error);
      // The code is spent by the failed attempt: the rightful client cannot be raced into a token.
      expect((await formPost(t.url, '/oauth/token', form)).body.error, name).toBe('invalid_grant');
    }
  });

  it('a code expires after 60 seconds', async () => {
    const alice = await makeUser(t.url);
    const { form } = await approvedCode(alice.browser, api);
    await t.app.deps.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await formPost(t.url, '/oauth/token', form)).body.error).toBe('invalid_grant');
  });

  it('refresh rotates; a reused refresh token revokes the grant, its access tokens and its MCP sessions', async () => {
    const alice = await makeUser(t.url);
    const { clientId, tokens } = await connect(t.url, alice.browser, mcp);
    const session = await connectMcp(t.url, tokens.access_token);
    const sessionId = session.transport.sessionId!;
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);

    const rotated = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.body.access_token).not.toBe(tokens.access_token);

    const reuse = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    const row = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where(
        'credential_id',
        '=',
        (
          await t.app.deps.db
            .selectFrom('oauth_grants')
            .select('id')
            .where('client_id', '=', clientId)
            .executeTakeFirstOrThrow()
        ).id,
      )
      .executeTakeFirstOrThrow();
    expect(row.ended_at).not.toBeNull();
    const fresh = await connectMcp(t.url, rotated.body.access_token).catch((err: Error) => err);
    expect(fresh).toBeInstanceOf(Error);
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: rotated.body.refresh_token,
          client_id: clientId,
        })
      ).body.error,
    ).toBe('invalid_grant');
    expect(sessionId).toBeTruthy();
    await session.close().catch(() => undefined);
  });

  it('a refresh token is spent only by its own client, and cannot widen scopes or move resources', async () => {
    const alice = await makeUser(t.url);
    const { clientId, tokens } = await connect(t.url, alice.browser, api, { scope: 'read' });
    const other = await register(t.url);
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: other.body.client_id,
        })
      ).body.error,
    ).toBe('invalid_grant');
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
          scope: 'read write',
        })
      ).body.error,
    ).toBe('invalid_scope');
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
          resource: mcp,
        })
      ).body.error,
    ).toBe('invalid_target');
    const ok = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      resource: api,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.scope).toBe('read');
  });

  it('an access token works only at its resource: an /mcp token is 401 at /api/v1 and the reverse', async () => {
    const alice = await makeUser(t.url);
    const forMcp = await connect(t.url, alice.browser, mcp);
    const forApi = await connect(t.url, alice.browser, api);
    const atApi = await bearer(forMcp.tokens.access_token).get('/api/v1/trees');
    expect(atApi.status).toBe(401);
    expect(atApi.headers.get('www-authenticate')).toContain('oauth-protected-resource/api/v1');
    expect((await bearer(forApi.tokens.access_token).get('/api/v1/trees')).status).toBe(200);
    const atMcp = await connectMcp(t.url, forApi.tokens.access_token).catch((err: Error) => err);
    expect(atMcp).toBeInstanceOf(Error);
    const ok = await connectMcp(t.url, forMcp.tokens.access_token);
    await ok.close();
  });

  it('on Seed the grant holds no write; granted scopes follow the plan on every request', async () => {
    const seed = await makeUser(t.url);
    const seedGrant = await connect(t.url, seed.browser, api, { scope: 'read write' });
    expect(seedGrant.tokens.scope).toBe('read');
    expect((await bearer(seedGrant.tokens.access_token).post('/api/v1/trees', { name: 'x' })).body.error.code).toBe(
      'insufficient_scope',
    );

    const grower = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { tokens } = await connect(t.url, grower.browser, api);
    expect(tokens.scope).toBe('read write attachments');
    expect((await bearer(tokens.access_token).post('/api/v1/trees', { name: 'ok' })).status).toBe(201);
    await setUserPlan(t.app.deps, grower.email, 'seed', null);
    const refused = await bearer(tokens.access_token).post('/api/v1/trees', { name: 'no' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('plan_read_only');
  });

  it('revokes per RFC 7009: an access token alone, a refresh token with its grant; unknown tokens are fine', async () => {
    const alice = await makeUser(t.url);
    const one = await connect(t.url, alice.browser, api);
    expect(
      (await formPost(t.url, '/oauth/revoke', { token: one.tokens.access_token, client_id: one.clientId })).status,
    ).toBe(200);
    expect((await bearer(one.tokens.access_token).get('/api/v1/trees')).status).toBe(401);
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: one.tokens.refresh_token,
          client_id: one.clientId,
        })
      ).status,
    ).toBe(200);

    const two = await connect(t.url, alice.browser, api);
    const foreign = await register(t.url);
    expect(
      (await formPost(t.url, '/oauth/revoke', { token: two.tokens.refresh_token, client_id: foreign.body.client_id }))
        .status,
    ).toBe(200);
    expect((await bearer(two.tokens.access_token).get('/api/v1/trees')).status).toBe(200);
    expect(
      (await formPost(t.url, '/oauth/revoke', { token: two.tokens.refresh_token, client_id: two.clientId })).status,
    ).toBe(200);
    expect((await bearer(two.tokens.access_token).get('/api/v1/trees')).status).toBe(401);
    expect((await formPost(t.url, '/oauth/revoke', { token: 'ttr_unknown' })).status).toBe(200);
    expect((await formPost(t.url, '/oauth/revoke', {})).body.error).toBe('invalid_request');
  });

  it('lists and revokes connections with the session (CSRF), never with a Bearer token', async () => {
    const alice = await makeUser(t.url);
    const bob = await makeUser(t.url);
    const { tokens } = await connect(t.url, alice.browser, api, { clientName: 'Claude' });
    await bearer(tokens.access_token).get('/api/v1/trees');
    const list = await alice.browser.get('/api/v1/oauth/connections');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    const connection = list.body.items[0];
    expect(connection).toMatchObject({ client_name: 'Claude', scopes: ['read', 'attachments'], resource: api });
    expect(connection.id).toMatch(/^oag_/);
    expect(connection.last_used_at).not.toBeNull();
    expect((await bearer(tokens.access_token).get('/api/v1/oauth/connections')).status).toBe(403);
    expect((await bob.browser.get('/api/v1/oauth/connections')).body.items).toEqual([]);
    expect((await bob.browser.delete(`/api/v1/oauth/connections/${connection.id}`)).status).toBe(404);
    const noCsrf = new Client(t.url);
    for (const [k, v] of alice.browser.cookies) noCsrf.cookies.set(k, v);
    expect((await noCsrf.delete(`/api/v1/oauth/connections/${connection.id}`)).status).toBe(403);
    expect((await alice.browser.delete(`/api/v1/oauth/connections/${connection.id}`)).body).toEqual({ ok: true });
    expect((await bearer(tokens.access_token).get('/api/v1/trees')).status).toBe(401);
    expect((await alice.browser.get('/api/v1/oauth/connections')).body.items).toEqual([]);
    expect((await new Client(t.url).get('/api/v1/oauth/connections')).status).toBe(401);
  });

  it('journals OAuth calls with the grant id and client name, and counts them per grant', async () => {
    const alice = await makeUser(t.url);
    const { clientId, tokens } = await connect(t.url, alice.browser, api, { clientName: 'Journal Agent' });
    const first = await bearer(tokens.access_token).get('/api/v1/trees');
    const rotated = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    const second = await bearer(rotated.body.access_token).get('/api/v1/trees');
    // Two access tokens of one grant share one budget.
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(
      Number(first.headers.get('ratelimit-remaining')) - 1,
    );
    await t.app.deps.journal.flush();
    const calls = (await alice.browser.get('/api/v1/agent-calls')).body.items;
    const grantId = (await alice.browser.get('/api/v1/oauth/connections')).body.items[0].id;
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls)
      expect(call).toMatchObject({
        token_id: grantId,
        client: 'Journal Agent',
        surface: 'rest',
        operation: 'GET /trees',
      });
  });

  it('a password reset ends every grant', async () => {
    const alice = await makeUser(t.url);
    const { tokens } = await connect(t.url, alice.browser, api);
    const user = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', alice.email)
      .executeTakeFirstOrThrow();
    const { token } = await mintResetLink(t.app.deps, user);
    const browser = new Client(t.url);
    await browser.get('/api/v1/auth/me');
    expect((await browser.post('/api/v1/auth/reset/complete', { token, password: `${PASSWORD}!` })).status).toBe(200);
    expect((await bearer(tokens.access_token).get('/api/v1/trees')).status).toBe(401);
    expect((await browser.get('/api/v1/oauth/connections')).body.items).toEqual([]);
  });
});
