import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { connectMcp } from '../helpers/mcp.js';
import { connect, consent, formPost, pkce, register } from '../helpers/oauth.js';
import { sweepOAuth } from '../../src/domain/agents/oauth-sweep.js';

const DAY_MS = 86_400_000;
const later = (days: number) => new Date(Date.now() + days * DAY_MS);

/**
 * The OAuth retention job on a real database: rows made by the real flow, the clock moved by
 * handing the sweep a later "now". What may still be used must survive every run.
 */
describe.each(databases)('the OAuth sweep (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let api: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = `${t.url}/api/v1`;
  });
  afterAll(async () => t.stop());

  const db = () => t.app.deps.db;
  const grantOf = async (clientId: string) =>
    db().selectFrom('oauth_grants').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  const tokensOf = async (grantId: string) =>
    db().selectFrom('oauth_tokens').select(['kind', 'used_at', 'revoked_at']).where('grant_id', '=', grantId).execute();
  const clientExists = async (id: string) =>
    (await db().selectFrom('oauth_clients').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('removes nothing that is live', async () => {
    const alice = await makeUser(t.url);
    const live = await connect(t.url, alice.browser, api);
    const grant = (await grantOf(live.clientId))!;
    const before = await tokensOf(grant.id);
    await sweepOAuth(t.app.deps);
    expect(await tokensOf(grant.id)).toEqual(before);
    expect(await clientExists(live.clientId)).toBe(true);
    expect(
      (await fetch(`${api}/trees`, { headers: { authorization: `Bearer ${live.tokens.access_token}` } })).status,
    ).toBe(200);
  });

  it('a day after expiry: access tokens and codes go; an unexchanged consent goes; a used refresh token stays and still catches a replay', async () => {
    const alice = await makeUser(t.url);
    const live = await connect(t.url, alice.browser, api);
    const rotated = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: live.tokens.refresh_token,
      client_id: live.clientId,
    });
    expect(rotated.status).toBe(200);
    const liveGrant = (await grantOf(live.clientId))!;
    const abandoned = await register(t.url);
    await consent(alice.browser, { client_id: abandoned.body.client_id, resource: api, challenge: pkce().challenge });
    const abandonedGrant = (await grantOf(abandoned.body.client_id))!;

    const swept = await sweepOAuth(t.app.deps, later(2));
    expect(swept.tokens).toBeGreaterThanOrEqual(2);
    expect(swept.codes).toBeGreaterThanOrEqual(2);
    expect(swept.grants).toBeGreaterThanOrEqual(1);
    expect(await grantOf(abandoned.body.client_id)).toBeUndefined();
    expect(
      await db()
        .selectFrom('oauth_codes')
        .select('code_hash')
        .where('grant_id', 'in', [liveGrant.id, abandonedGrant.id])
        .execute(),
    ).toEqual([]);
    // Both refresh tokens (the spent one and its successor) stay; the access tokens went.
    const left = await tokensOf(liveGrant.id);
    expect(left.map((row) => row.kind).sort()).toEqual(['refresh', 'refresh']);
    expect(await grantOf(live.clientId)).toBeDefined();
    expect((await alice.browser.get('/api/v1/oauth/connections')).body.items.map((c: { id: string }) => c.id)).toEqual([
      liveGrant.id,
    ]);

    const replay = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: live.tokens.refresh_token,
      client_id: live.clientId,
    });
    expect(replay.body.error).toBe('invalid_grant');
    expect((await grantOf(live.clientId))!.revoked_at).not.toBeNull();
  });

  it('a revoked connection: its tokens go after a day, the grant after a week', async () => {
    const alice = await makeUser(t.url);
    const gone = await connect(t.url, alice.browser, api);
    const grant = (await grantOf(gone.clientId))!;
    expect((await alice.browser.delete(`/api/v1/oauth/connections/${grant.id}`)).status).toBe(200);
    await sweepOAuth(t.app.deps, later(2));
    expect(await tokensOf(grant.id)).toEqual([]);
    expect(await grantOf(gone.clientId)).toBeDefined();
    await sweepOAuth(t.app.deps, later(8));
    expect(await grantOf(gone.clientId)).toBeUndefined();
  });

  it('a connection whose refresh token ran out goes with its MCP sessions; clients unused for 30 days go', async () => {
    const bob = await makeUser(t.url);
    const old = await connect(t.url, bob.browser, `${t.url}/mcp`);
    const session = await connectMcp(t.url, old.tokens.access_token);
    const grant = (await grantOf(old.clientId))!;
    const idle = await register(t.url);
    const fresh = await register(t.url);
    // The idle client was last used 31 days ago; the fresh one just registered.
    await db()
      .updateTable('oauth_clients')
      .set({ last_used_at: new Date(Date.now() - 31 * DAY_MS).toISOString() })
      .where('id', '=', idle.body.client_id)
      .execute();
    const swept = await sweepOAuth(t.app.deps);
    expect(swept.clients).toBeGreaterThanOrEqual(1);
    expect(await clientExists(idle.body.client_id)).toBe(false);
    expect(await clientExists(fresh.body.client_id)).toBe(true);
    expect(await clientExists(old.clientId)).toBe(true);

    await sweepOAuth(t.app.deps, later(32));
    expect(await grantOf(old.clientId)).toBeUndefined();
    const ended = await db()
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('credential_id', '=', grant.id)
      .execute();
    expect(ended.length).toBeGreaterThan(0);
    for (const row of ended) expect(row.ended_at).not.toBeNull();
    expect(await clientExists(old.clientId)).toBe(false);
    await session.close().catch(() => undefined);
  });
});
