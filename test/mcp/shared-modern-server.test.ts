import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PerRequestHTTPServerTransport, Server } from '@modelcontextprotocol/server';
import { databases, startTestApp } from '../helpers/app.js';
import { MODERN, rawMcp, toolErrorOf } from '../helpers/mcp.js';
import { someone as someoneWith } from './someone.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Lane = 'direct' | 'shared' | 'sdk';

/** Mcp-Name as an encoded header value: the SDK's handler decodes it, so the same call goes the SDK's way. */
function encoded(name: string): string {
  return `=?base64?${Buffer.from(name).toString('base64')}?=`;
}

/**
 * A 2026-07-28 tools/call that passes the SDK handler's checks is answered from the tool table
 * when plain, else on a server shared by credentials that see the same tools, bound to that
 * revision once, instead of a server built for the request. Its answers must be the SDK
 * handler's, byte for byte in meaning;
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

  const someone = (scopes: string[]) => someoneWith(t, scopes);

  /**
   * A tools/call the way each lane takes it: a plain one is answered from the tool table
   * (direct-call.ts); with a progress token in `_meta` it is still the SDK handler's checks
   * passed, but not plain, so a shared server answers it; with an encoded Mcp-Name the SDK's
   * handler decodes, the SDK's handler answers it on a server of its own.
   */
  function call(token: string, id: string | number, name: string, args: unknown, options: { lane?: Lane; meta?: Record<string, unknown> } = {}) {
    const lane = options.lane ?? 'direct';
    const meta = { ...(options.meta ?? META), ...(lane === 'shared' ? { progressToken: 'p' } : {}) };
    return rawMcp(t.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } }, {
      authorization: `Bearer ${token}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': lane === 'sdk' ? encoded(name) : name,
    });
  }

  it('answers as the SDK handler answers the same call, whichever lane serves it', async () => {
    const me = await someone(['read']);
    const other = await someone(['read', 'write']);
    const flawedEnvelope = { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'raw-agent' } };
    // [tool, arguments, _meta, the lane a plain call takes: the tool table, a shared server, or none (refused before any server)]
    const cases: [name: string, args: unknown, meta: Record<string, unknown>, plain: 'direct' | 'shared' | 'none'][] = [
      ['get_task', { id: me.task.id }, META, 'direct'],
      ['get_task', { id: other.task.id }, META, 'direct'], // someone else's: not found
      ['get_task', { id: 'nope', extra: 1 }, META, 'direct'], // refused arguments
      ['list_tasks', { tree_id: me.tree.id }, META, 'direct'],
      ['get_task', { id: me.task.id }, { ...META, 'io.modelcontextprotocol/clientInfo': undefined }, 'direct'], // no client info: allowed
      ['get_task', 'not an object', META, 'shared'], // invalid params
      ['create_task', { tree_id: me.tree.id, title: 'x' }, META, 'shared'], // a tool this credential does not see
      ['no_such_tool', {}, META, 'shared'],
      ['get_task', { id: me.task.id }, flawedEnvelope, 'none'],
    ];
    const perRequest = vi.spyOn(PerRequestHTTPServerTransport.prototype, 'handleMessage');
    const serverContexts = vi.spyOn(Server.prototype as unknown as { buildContext: () => unknown }, 'buildContext');
    const counts = (): [number, number] => [serverContexts.mock.calls.length, perRequest.mock.calls.length];
    for (const [name, args, meta, plain] of cases) {
      const answers = [];
      const served = [];
      for (const lane of ['direct', 'shared', 'sdk'] as const) {
        const [contexts, requests] = counts();
        const answer = await call(me.token, 7, name, args, { lane, meta });
        answers.push({ status: answer.status, type: answer.headers.get('content-type'), body: withoutRequestId(answer.json) });
        const [contextsAfter, requestsAfter] = counts();
        served.push(requestsAfter > requests ? 'sdk' : contextsAfter > contexts ? 'shared' : 'direct');
      }
      expect(answers[0], `${name}, plain`).toEqual(answers[2]);
      expect(answers[1], `${name}, on a shared server`).toEqual(answers[2]);
      expect(served, name).toEqual(plain === 'none' ? ['direct', 'direct', 'direct'] : [plain, 'shared', 'sdk']);
    }
  });

  it('keeps callers apart: colliding ids, different tool sets, foreign ids', async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => someone(['read', 'write'])));
    const reader = await someone(['read']);
    for (const lane of ['direct', 'shared'] as const) {
      const reads = [...writers, reader].flatMap((p) => Array.from({ length: 8 }, () => p)).map(async (p) => ({ p, answer: await call(p.token, 1, 'get_task', { id: p.task.id }, { lane }) }));
      const creates = [writers[0]!, reader].map(async (p) => ({ p, answer: await call(p.token, 1, 'create_task', { tree_id: p.tree.id, title: 'new' }, { lane }) }));
      const foreign = Array.from({ length: 8 }, (_, i) => call(reader.token, `x${i}`, 'get_task', { id: writers[i % 4]!.task.id }, { lane }));
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
        expect(toolErrorOf(answer.json.result).code).toBe('not_found');
      }
    }
  });

  it('decides on every call: a revoked token fails at the next one, a plan change changes the tools', async () => {
    for (const lane of ['direct', 'shared'] as const) {
      const me = await someone(['read', 'write']);
      expect((await call(me.token, 1, 'get_task', { id: me.task.id }, { lane })).status).toBe(200);
      const { setUserPlan } = await import('../../src/domain/accounts/accounts.js');
      await setUserPlan(t.app.deps, me.person.email, 'seed', null);
      const readOnly = await call(me.token, 2, 'create_task', { tree_id: me.tree.id, title: 'x' }, { lane });
      expect(readOnly.json.error).toMatchObject({ code: -32602, message: expect.stringMatching(/create_task not found/) });
      await setUserPlan(t.app.deps, me.person.email, 'sprout', null);
      expect((await call(me.token, 3, 'create_task', { tree_id: me.tree.id, title: 'x' }, { lane })).json.result.structuredContent.task.title).toBe('x');

      expect((await me.person.browser.delete(`/api/v1/tokens/${me.tokenId}`)).status).toBe(200);
      expect((await call(me.token, 4, 'get_task', { id: me.task.id }, { lane })).status).toBe(401);
    }
  });
});

/** The request id in `error.data` differs between any two requests. */
function withoutRequestId(body: any): unknown {
  if (body?.error?.data?.request_id === undefined) return body;
  const { request_id: _, ...data } = body.error.data;
  return { ...body, error: { ...body.error, data } };
}
