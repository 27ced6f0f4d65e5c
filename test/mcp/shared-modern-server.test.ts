import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PerRequestHTTPServerTransport } from '@modelcontextprotocol/server';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { MODERN, rawMcp } from '../helpers/mcp.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Mcp-Name as an encoded header value: the SDK's handler decodes it, so the same call goes the SDK's way. */
function encoded(name: string): string {
  return `=?base64?${Buffer.from(name).toString('base64')}?=`;
}

/**
 * A 2026-07-28 tools/call that passes the SDK handler's checks plainly is served on a server
 * shared by credentials that see the same tools, bound to that revision once, instead of a
 * server built for the request. Its answers must be the SDK handler's, byte for byte in meaning;
 * calls of different people with the same JSON-RPC id must each get their own; what a credential
 * may call is decided on every request.
 */
describe.each(databases)('MCP 2026-07-28 tool calls on a shared server (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function someone(scopes: string[]) {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person, { scopes });
    const tree = await makeTree(person.browser);
    const task = await makeTask(person.browser, tree.id, { title: `task of ${person.email}` });
    return { person, token: made.value, tokenId: made.token.id, tree, task };
  }

  function call(token: string, id: string | number, name: string, args: unknown, options: { mcpName?: string; meta?: unknown } = {}) {
    return rawMcp(t.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: options.meta ?? META } }, {
      authorization: `Bearer ${token}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': options.mcpName ?? name,
    });
  }

  it('answers as the SDK handler answers the same call, and serves plain calls without it', async () => {
    const me = await someone(['read']);
    const other = await someone(['read', 'write']);
    const flawedEnvelope = { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'raw-agent' } };
    // [tool, arguments, _meta, whether the call reaches a server at all (the SDK refuses a flawed envelope before)]
    const cases: [name: string, args: unknown, meta: unknown, reachesServer: boolean][] = [
      ['get_task', { id: me.task.id }, META, true],
      ['get_task', { id: other.task.id }, META, true], // someone else's: not found
      ['get_task', { id: 'nope', extra: 1 }, META, true], // refused arguments
      ['get_task', 'not an object', META, true], // invalid params
      ['create_task', { tree_id: me.tree.id, title: 'x' }, META, true], // a tool this credential does not see
      ['no_such_tool', {}, META, true],
      ['list_tasks', { tree_id: me.tree.id }, META, true],
      ['get_task', { id: me.task.id }, flawedEnvelope, false],
    ];
    const perRequest = vi.spyOn(PerRequestHTTPServerTransport.prototype, 'handleMessage');
    for (const [name, args, meta, reachesServer] of cases) {
      const before = perRequest.mock.calls.length;
      const shared = await call(me.token, 7, name, args, { meta });
      const between = perRequest.mock.calls.length;
      const sdk = await call(me.token, 7, name, args, { meta, mcpName: encoded(name) });
      expect({ status: shared.status, type: shared.headers.get('content-type'), body: withoutRequestId(shared.json) }, name)
        .toEqual({ status: sdk.status, type: sdk.headers.get('content-type'), body: withoutRequestId(sdk.json) });
      // The plain call never reached a per-request server; the encoded one did, when anything did.
      expect(between, `${name} served on the shared server`).toBe(before);
      expect(perRequest.mock.calls.length > between, `${name} served by the SDK's handler`).toBe(reachesServer);
    }
    expect((await call(me.token, 1, 'get_task', { id: me.task.id })).json.result.structuredContent.task.id).toBe(me.task.id);
  });

  it('keeps callers apart: colliding ids, different tool sets, foreign ids', async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => someone(['read', 'write'])));
    const reader = await someone(['read']);
    const reads = [...writers, reader].flatMap((p) => Array.from({ length: 8 }, () => p)).map(async (p) => ({ p, answer: await call(p.token, 1, 'get_task', { id: p.task.id }) }));
    const creates = [writers[0]!, reader].map(async (p) => ({ p, answer: await call(p.token, 1, 'create_task', { tree_id: p.tree.id, title: 'new' }) }));
    const foreign = Array.from({ length: 8 }, (_, i) => call(reader.token, `x${i}`, 'get_task', { id: writers[i % 4]!.task.id }));
    for (const { p, answer } of await Promise.all(reads)) {
      expect(answer.status).toBe(200);
      expect(answer.json.id).toBe(1);
      expect(answer.json.result.structuredContent.task).toMatchObject({ id: p.task.id, title: p.task.title });
    }
    const [written, refused] = await Promise.all(creates);
    expect(written!.answer.json.result.structuredContent.task).toMatchObject({ title: 'new', tree_id: writers[0]!.tree.id });
    expect(refused!.answer.json.error).toMatchObject({ code: -32602, message: expect.stringMatching(/create_task not found/) });
    for (const [i, answer] of (await Promise.all(foreign)).entries()) {
      expect(answer.json.id).toBe(`x${i}`);
      expect(answer.json.result.structuredContent.error.code).toBe('not_found');
    }
  });

  it('decides on every call: a revoked token fails at the next one, a plan change changes the tools', async () => {
    const me = await someone(['read', 'write']);
    expect((await call(me.token, 1, 'get_task', { id: me.task.id })).status).toBe(200);
    const { setUserPlan } = await import('../../src/domain/accounts/accounts.js');
    await setUserPlan(t.app.deps, me.person.email, 'seed', null);
    const readOnly = await call(me.token, 2, 'create_task', { tree_id: me.tree.id, title: 'x' });
    expect(readOnly.json.error).toMatchObject({ code: -32602, message: expect.stringMatching(/create_task not found/) });
    await setUserPlan(t.app.deps, me.person.email, 'sprout', null);
    expect((await call(me.token, 3, 'create_task', { tree_id: me.tree.id, title: 'x' })).json.result.structuredContent.task.title).toBe('x');

    expect((await me.person.browser.delete(`/api/v1/tokens/${me.tokenId}`)).status).toBe(200);
    const revoked = await call(me.token, 4, 'get_task', { id: me.task.id });
    expect(revoked.status).toBe(401);
  });
});

/** The request id in `error.data` differs between any two requests. */
function withoutRequestId(body: any): unknown {
  if (body?.error?.data?.request_id === undefined) return body;
  const { request_id: _, ...data } = body.error.data;
  return { ...body, error: { ...body.error, data } };
}
