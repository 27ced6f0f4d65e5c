import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { register, REDIRECT } from '../helpers/oauth.js';
import { CLIENT_UNUSED_DAYS } from '../../src/domain/agents/oauth-clients.js';

describe.each(databases)('OAuth discovery and registration (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('publishes RFC 8414 metadata with exactly the CONTRACT values, and no OpenID discovery', async () => {
    const response = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const doc: any = await response.json();
    expect(doc).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/register`,
      revocation_endpoint: `${t.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    expect(doc.scopes_supported).not.toContain('openid');
    expect((await fetch(`${t.url}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it('publishes one RFC 9728 document per resource; the bare path answers for /mcp', async () => {
    const mcp = await (await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`)).json();
    const api = await (await fetch(`${t.url}/.well-known/oauth-protected-resource/api/v1`)).json();
    const bare = await (await fetch(`${t.url}/.well-known/oauth-protected-resource`)).json();
    expect(mcp).toMatchObject({ resource: `${t.url}/mcp`, authorization_servers: [t.url] });
    expect(api).toMatchObject({ resource: `${t.url}/api/v1`, authorization_servers: [t.url] });
    expect(bare).toEqual(mcp);
  });

  it('names the resource document on every 401 of /mcp and /api/v1', async () => {
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain(
      `resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const api = await fetch(`${t.url}/api/v1/trees`);
    expect(api.status).toBe(401);
    expect(api.headers.get('www-authenticate')).toContain(
      `resource_metadata="${t.url}/.well-known/oauth-protected-resource/api/v1"`,
    );
    const bad = await fetch(`${t.url}/api/v1/auth/me`, { headers: { authorization: 'Bearer tto_nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata=/);
  });

  it('answers browser clients cross-origin (the MCP Inspector runs discovery and tokens from a page)', async () => {
    const preflight = await fetch(`${t.url}/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`, {
      headers: { origin: 'http://localhost:6274' },
    });
    expect(doc.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('registers public clients only, with https or loopback redirect URIs; unused members are ignored, never refused', async () => {
    const ok = await register(t.url, {
      logo_uri: 'https://example.test/logo.png',
      scope: 'read write',
      redirect_uris: [REDIRECT, 'https://app.example.test/cb', 'http://[::1]/cb', 'http://localhost/cb'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ token_endpoint_auth_method: 'none', client_name: 'Test agent' });
    expect(ok.body.client_id).toMatch(/^oac_/);
    expect(ok.body.client_secret).toBeUndefined();

    const secret = await register(t.url, { token_endpoint_auth_method: 'client_secret_basic' });
    expect(secret.status).toBe(400);
    expect(secret.body.error).toBe('invalid_client_metadata');
    for (const uri of [
      'http://example.test/cb',
      'javascript:alert(1)',
      'https://x.test/cb#frag',
      'not a url',
      'http://127.0.0.2.example.test/cb',
    ]) {
      const bad = await register(t.url, { redirect_uris: [uri] });
      expect(bad.status, uri).toBe(400);
      expect(bad.body.error, uri).toBe('invalid_redirect_uri');
    }
    expect((await register(t.url, { redirect_uris: [] })).body.error).toBe('invalid_redirect_uri');
    expect((await register(t.url, { scope: 'openid read' })).body.error).toBe('invalid_scope');
    expect((await register(t.url, { client_id: 'https://agent.example.test/client.json' })).body.error).toBe(
      'invalid_client_metadata',
    );
    expect((await register(t.url, { grant_types: ['client_credentials'] })).body.error).toBe('invalid_client_metadata');
    const notJson = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error).toBe('invalid_client_metadata');
    const rows = await t.app.deps.db.selectFrom('oauth_clients').select('id').execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps only the members it uses, in the answer and the stored row (CONTRACT §19)', async () => {
    const ok = await register(t.url, {
      logo_uri: 'https://example.test/logo.png',
      scope: 'read write',
      software_id: 'x',
      padding: 'p'.repeat(8_000),
      nested: { deep: [1, 2, 3] },
    });
    expect(ok.status).toBe(201);
    const known = [
      'client_id',
      'client_id_issued_at',
      'client_name',
      'redirect_uris',
      'token_endpoint_auth_method',
      'grant_types',
      'response_types',
    ];
    expect(Object.keys(ok.body).sort()).toEqual([...known].sort());
    const row = await t.app.deps.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('id', '=', ok.body.client_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.metadata)).toEqual(ok.body);
    expect(row.metadata.length).toBeLessThan(1_000);
  });

  it('refuses a registration document over 16 KiB with 400 invalid_client_metadata, storing nothing', async () => {
    const before = (await t.app.deps.db.selectFrom('oauth_clients').select('id').execute()).length;
    const big = await register(t.url, { logo_uri: 'x'.repeat(17 * 1024) });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringContaining('16384') });
    expect(big.headers.get('cache-control')).toBe('no-store');
    // Sent without a length (chunked), the limit holds as the body arrives.
    const chunks = [JSON.stringify({ redirect_uris: [REDIRECT], padding: 'p'.repeat(17 * 1024) })];
    const streamed = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      }),
    } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(((await streamed.json()) as any).error).toBe('invalid_client_metadata');
    // Just under the limit is still a registration.
    const fits = await register(t.url, { padding: 'p'.repeat(15 * 1024) });
    expect(fits.status).toBe(201);
    expect((await t.app.deps.db.selectFrom('oauth_clients').select('id').execute()).length).toBe(before + 1);
  });

  it('removes clients unused for 30 days when the next one registers', async () => {
    const old = await register(t.url);
    const recent = await register(t.url);
    const longAgo = new Date(Date.now() - (CLIENT_UNUSED_DAYS + 1) * 86_400_000).toISOString();
    await t.app.deps.db
      .updateTable('oauth_clients')
      .set({ last_used_at: longAgo })
      .where('id', '=', old.body.client_id)
      .execute();
    await register(t.url);
    const ids = (await t.app.deps.db.selectFrom('oauth_clients').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain(old.body.client_id);
    expect(ids).toContain(recent.body.client_id);
  });

  // Last: it spends this address's registration budget.
  it('limits registration to 60 a minute per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await register(t.url)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const refused = await register(t.url);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.error).toBe('rate_limited');
  });
});
