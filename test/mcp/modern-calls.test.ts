import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { MODERN, rawMcp, toolErrorOf } from '../helpers/mcp.js';
import { someone as someoneWith } from './someone.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Lane = 'fast' | 'sdk';

/**
 * 2026-07-28 tool calls, sessionless: a plain one is answered by the fast path, one with a
 * progress token in `_meta` (not plain) by the SDK's handler. Either way, calls of different
 * people with the same JSON-RPC id must each get their own answer, and what a credential may
 * call is decided on every request. test/mcp/fast-path.test.ts compares the two lanes' answers.
 */
describe.each(databases)('MCP 2026-07-28 tool calls (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  const someone = (scopes: string[]) => someoneWith(t, scopes);

  function call(token: string, id: string | number, name: string, args: unknown, options: { lane?: Lane } = {}) {
    const meta = { ...META, ...(options.lane === 'sdk' ? { progressToken: 'p' } : {}) };
    return rawMcp(
      t.url,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } },
      {
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
    );
  }

  it('keeps callers apart: colliding ids, different tool sets, foreign ids', async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => someone(['read', 'write'])));
    const reader = await someone(['read']);
    for (const lane of ['fast', 'sdk'] as const) {
      const reads = [...writers, reader]
        .flatMap((p) => Array.from({ length: 8 }, () => p))
        .map(async (p) => ({ p, answer: await call(p.token, 1, 'get_task', { id: p.task.id }, { lane }) }));
      const creates = [writers[0]!, reader].map(async (p) => ({
        p,
        answer: await call(p.token, 1, 'create_task', { tree_id: p.tree.id, title: 'new' }, { lane }),
      }));
      const foreign = Array.from({ length: 8 }, (_, i) =>
        call(reader.token, `x${i}`, 'get_task', { id: writers[i % 4]!.task.id }, { lane }),
      );
      for (const { p, answer } of await Promise.all(reads)) {
        expect(answer.status).toBe(200);
        expect(answer.json.id).toBe(1);
        expect(answer.json.result.structuredContent.task).toMatchObject({ id: p.task.id, title: p.task.title });
      }
      const [written, refused] = await Promise.all(creates);
      expect(written!.answer.json.result.structuredContent.task).toMatchObject({
        title: 'new',
        tree_id: writers[0]!.tree.id,
      });
      expect(refused!.answer.json.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/create_task not found/),
      });
      for (const [i, answer] of (await Promise.all(foreign)).entries()) {
        expect(answer.json.id).toBe(`x${i}`);
        expect(toolErrorOf(answer.json.result).code).toBe('not_found');
      }
    }
  });

  it('decides on every call: a revoked token fails at the next one, a plan change changes the tools', async () => {
    for (const lane of ['fast', 'sdk'] as const) {
      const me = await someone(['read', 'write']);
      expect((await call(me.token, 1, 'get_task', { id: me.task.id }, { lane })).status).toBe(200);
      const { setUserPlan } = await import('../../src/domain/accounts/accounts.js');
      await setUserPlan(t.app.deps, me.person.email, 'seed', null);
      const readOnly = await call(me.token, 2, 'create_task', { tree_id: me.tree.id, title: 'x' }, { lane });
      expect(readOnly.json.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/create_task not found/),
      });
      await setUserPlan(t.app.deps, me.person.email, 'sprout', null);
      expect(
        (await call(me.token, 3, 'create_task', { tree_id: me.tree.id, title: 'x' }, { lane })).json.result
          .structuredContent.task.title,
      ).toBe('x');

      expect((await me.person.browser.delete(`/api/v1/tokens/${me.tokenId}`)).status).toBe(200);
      expect((await call(me.token, 4, 'get_task', { id: me.task.id }, { lane })).status).toBe(401);
    }
  });
});
