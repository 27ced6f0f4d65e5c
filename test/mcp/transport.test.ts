import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, initializeMessage, rawMcp } from '../helpers/mcp.js';

const LEGACY = '2025-11-25';
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** initialize over raw HTTP, as any 2025 client does; returns the minted session id. */
async function openSession(url: string, token: string): Promise<string> {
  const answer = await rawMcp(url, initializeMessage, { authorization: `Bearer ${token}` });
  expect(answer.status).toBe(200);
  const id = answer.headers.get('mcp-session-id');
  expect(id).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  return id!;
}

function inSession(token: string, sessionId: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY, ...extra };
}

describe.each(databases)('MCP transport (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let token: string;
  let tokenId: string;
  let person: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person, { scopes: ['read', 'write'] });
    token = made.value;
    tokenId = made.token.id;
  });
  afterAll(async () => t.stop());

  it('mints a session on initialize and requires it afterwards', async () => {
    const init = await rawMcp(t.url, initializeMessage, { authorization: `Bearer ${token}` });
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(init.json.result).toMatchObject({
      protocolVersion: LEGACY,
      serverInfo: { name: 'task-tree', version: '0.8.3' },
      capabilities: { tools: {}, resources: {} },
    });
    const sessionId = init.headers.get('mcp-session-id')!;

    const ok = await rawMcp(t.url, listTools, inSession(token, sessionId));
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.length).toBeGreaterThan(0);

    const missing = await rawMcp(t.url, listTools, {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': LEGACY,
    });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/Mcp-Session-Id/) },
    });

    const unknown = await rawMcp(t.url, listTools, inSession(token, 'x'.repeat(43)));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe(-32001);
  });

  it('refuses a NUL byte in clientInfo as invalid params, storing nothing', async () => {
    const sessions = async () => (await t.app.deps.db.selectFrom('mcp_sessions').select('id_hash').execute()).length;
    const before = await sessions();
    for (const clientInfo of [
      { name: 'agent\u0000x', version: '1' },
      { name: 'agent', version: '1\u0000' },
    ]) {
      const answer = await rawMcp(
        t.url,
        { ...initializeMessage, id: 7, params: { ...initializeMessage.params, clientInfo } },
        { authorization: `Bearer ${token}` },
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: expect.stringMatching(/clientInfo\.(name|version).*NUL/) },
      });
      expect(answer.headers.get('mcp-session-id')).toBeNull();
    }
    expect(await sessions()).toBe(before);
    await t.app.deps.journal.flush();
    const calls = await t.app.deps.journal.latest(person.user.id);
    expect(calls.some((call) => (call.client ?? '').includes('\u0000'))).toBe(false);
  });

  it('binds a session to the credential that opened it', async () => {
    const sessionId = await openSession(t.url, token);
    const sameUserOtherToken = await makeToken(person, { scopes: ['read'] });
    expect((await rawMcp(t.url, listTools, inSession(sameUserOtherToken.value, sessionId))).status).toBe(404);
    const mallory = await makeUser(t.url, t.app, { plan: 'sprout' });
    const malloryToken = await makeToken(mallory);
    expect((await rawMcp(t.url, listTools, inSession(malloryToken.value, sessionId))).status).toBe(404);
    expect(
      (await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: inSession(malloryToken.value, sessionId) })).status,
    ).toBe(404);
    expect((await rawMcp(t.url, listTools, inSession(token, sessionId))).status).toBe(200);
  });

  it('ends a session on DELETE', async () => {
    const sessionId = await openSession(t.url, token);
    expect(
      (await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(400);
    const ended = await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: inSession(token, sessionId) });
    expect(ended.status).toBe(200);
    expect((await rawMcp(t.url, listTools, inSession(token, sessionId))).status).toBe(404);
    expect((await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: inSession(token, sessionId) })).status).toBe(404);
  });

  it('ends sessions when the token is revoked, on a password reset and when they sit idle', async () => {
    const doomed = await makeToken(person, { scopes: ['read'] });
    const sessionId = await openSession(t.url, doomed.value);
    expect((await person.browser.delete(`/api/v1/tokens/${doomed.token.id}`)).status).toBe(200);
    const row = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select(['ended_at'])
      .where('credential_id', '=', doomed.token.id)
      .executeTakeFirstOrThrow();
    expect(row.ended_at).not.toBeNull();
    const revoked = await rawMcp(t.url, listTools, inSession(doomed.value, sessionId));
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer /);

    // A password reset ends every token of the account (revokeAllTokens) and so their sessions.
    const other = await makeToken(person, { scopes: ['read'] });
    const otherSession = await openSession(t.url, other.value);
    const { revokeAllTokens } = await import('../../src/domain/agents/tokens.js');
    const spare = await makeUser(t.url, t.app);
    const spareToken = await makeToken(spare);
    const spareSession = await openSession(t.url, spareToken.value);
    expect(await revokeAllTokens(t.app.deps, spare.user.id)).toEqual([spareToken.token.id]);
    const ended = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('credential_id', '=', spareToken.token.id)
      .executeTakeFirstOrThrow();
    expect(ended.ended_at).not.toBeNull();
    expect((await rawMcp(t.url, listTools, inSession(spareToken.value, spareSession))).status).toBe(401);
    expect((await rawMcp(t.url, listTools, inSession(other.value, otherSession))).status).toBe(200);

    // An expired token is refused before its session is even looked up.
    const expiring = await makeToken(person, { scopes: ['read'] });
    const expiringSession = await openSession(t.url, expiring.value);
    await t.app.deps.db
      .updateTable('personal_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiring.token.id)
      .execute();
    // As if the token had aged past its expiry: the second-long lookup cache ages with it.
    t.app.deps.credentials.clear();
    const expired = await rawMcp(t.url, listTools, inSession(expiring.value, expiringSession));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const idle = await openSession(t.url, token);
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await t.app.deps.db
      .updateTable('mcp_sessions')
      .set({ last_seen_at: dayAgo })
      .where('credential_id', '=', tokenId)
      .execute();
    expect((await rawMcp(t.url, listTools, inSession(token, idle))).status).toBe(404);
  });

  it('answers GET with 405, needs a Bearer token and checks Origin', async () => {
    const get = await fetch(`${t.url}/mcp`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');

    const anonymous = await rawMcp(t.url, initializeMessage);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    expect(anonymous.json).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'unauthenticated' } } });

    const cookieOnly = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      body: JSON.stringify(initializeMessage),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        cookie: [...person.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': person.browser.csrf!,
      },
    });
    expect(cookieOnly.status).toBe(401);

    const rebinding = await rawMcp(t.url, initializeMessage, {
      authorization: `Bearer ${token}`,
      origin: 'http://evil.example',
    });
    expect(rebinding.status).toBe(403);
    const local = await rawMcp(t.url, initializeMessage, {
      authorization: `Bearer ${token}`,
      origin: 'http://localhost:6274',
    });
    expect(local.status).toBe(200);
  });

  it('checks the account guard before anything else', async () => {
    const mismatch = await rawMcp(t.url, initializeMessage, {
      authorization: `Bearer ${token}`,
      'x-service-user': 'usr_someone_else',
    });
    expect(mismatch.status).toBe(409);
    expect(mismatch.json).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'account_mismatch' } } });
    expect(mismatch.headers.get('mcp-session-id')).toBeNull();
    const matching = await rawMcp(t.url, initializeMessage, {
      authorization: `Bearer ${token}`,
      'x-service-user': person.user.id,
    });
    expect(matching.status).toBe(200);
  });

  it('refuses an unsupported MCP-Protocol-Version', async () => {
    const sessionId = await openSession(t.url, token);
    const answer = await rawMcp(
      t.url,
      listTools,
      inSession(token, sessionId, { 'mcp-protocol-version': '1999-01-01' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/protocol version/i);
    const unsupportedInit = await rawMcp(
      t.url,
      { ...initializeMessage, params: { ...initializeMessage.params, protocolVersion: '1999-01-01' } },
      { authorization: `Bearer ${token}` },
    );
    expect(unsupportedInit.status).toBe(200);
    expect(unsupportedInit.json.result.protocolVersion).not.toBe('1999-01-01');
  });

  it('answers malformed JSON-RPC with JSON-RPC errors, never a 500', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const sessionId = await openSession(t.url, token);
    const parse = await rawMcp(t.url, '{"jsonrpc": "2.0", "id": 1, "method": ', auth);
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });

    for (const body of [
      '[]',
      '42',
      '"text"',
      '{"hello": "world"}',
      '{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}',
      '[{"jsonrpc":"2.0"}]',
    ]) {
      const answer = await rawMcp(t.url, body, inSession(token, sessionId));
      expect(answer.status, body).toBeGreaterThanOrEqual(400);
      expect(answer.status, body).toBeLessThan(500);
      expect(answer.json?.jsonrpc, body).toBe('2.0');
      expect(answer.json?.error?.code, body).toBeLessThan(0);
    }
    const unknownMethod = await rawMcp(
      t.url,
      { jsonrpc: '2.0', id: 9, method: 'tasks/teleport', params: {} },
      inSession(token, sessionId),
    );
    expect(unknownMethod.json).toMatchObject({ id: 9, error: { code: -32601 } });

    const wrongType = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { jsonrpc: string }).jsonrpc).toBe('2.0');

    const huge = await rawMcp(
      t.url,
      { ...listTools, params: { pad: 'x'.repeat(2_000_000) } },
      inSession(token, sessionId),
    );
    expect(huge.status).toBe(413);
    expect(huge.json.jsonrpc).toBe('2.0');
  });

  it('keeps serving a session across a restart and on a second instance', async () => {
    const env = makeTestEnv(kind);
    try {
      const first = await startApp(env);
      const user = await makeUser(first.url, first.app, { plan: 'sprout' });
      const made = await makeToken(user, { scopes: ['read', 'write'] });
      const tree = await makeTree(made.agent);
      const task = await makeTask(made.agent, tree.id, { title: 'Survives restarts' });
      const mcp = await connectMcp(first.url, made.value);
      const sessionId = mcp.transport.sessionId!;
      expect(sessionId).toBeTruthy();
      await first.close();

      const second = await startApp(env);
      const third = await startApp(env);
      try {
        for (const instance of [second, third]) {
          const resumed = await connectMcp(instance.url, made.value, { sessionId });
          const got = await resumed.client.callTool({ name: 'get_task', arguments: { id: task.id } });
          expect((got.structuredContent as any).task.title).toBe('Survives restarts');
          expect(resumed.transport.sessionId).toBe(sessionId);
        }
      } finally {
        await second.close();
        await third.close();
      }
    } finally {
      await env.dispose();
    }
  });
});

describe.each(databases)('MCP rate limit shared with REST (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_PER_MINUTE: '6' });
  });
  afterAll(async () => t.stop());

  it('counts MCP and REST requests against one budget per token', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person);
    const auth = { authorization: `Bearer ${made.value}` };
    for (let i = 0; i < 3; i++) expect((await made.agent.get('/api/v1/trees')).status).toBe(200);
    const sessionId = (await rawMcp(t.url, initializeMessage, auth)).headers.get('mcp-session-id')!;
    expect((await rawMcp(t.url, listTools, inSession(made.value, sessionId))).status).toBe(200);
    expect((await made.agent.get('/api/v1/trees')).status).toBe(200);
    const limited = await rawMcp(t.url, listTools, inSession(made.value, sessionId));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'rate_limited' } } });
    expect((await made.agent.get('/api/v1/trees')).status).toBe(429);
  });
});
