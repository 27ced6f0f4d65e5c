import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Server } from '@modelcontextprotocol/server';
import { databases, startTestApp } from '../helpers/app.js';
import { initializeMessage, rawMcp } from '../helpers/mcp.js';
import { someone as someoneWith } from './someone.js';

const LEGACY = '2025-11-25';

/**
 * A plain tools/call of the 2025 revisions is answered from the tool table without the SDK's
 * server (src/http/mcp/direct-call.ts). Its answers must be the server's: the same call made
 * not plain (an empty `_meta`, which the server reads and our tools ignore) goes through the
 * server, and both must answer alike, for results and for every kind of refusal.
 */
describe.each(databases)('MCP 2025 tool calls answered without a server (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Someone with an open session of the 2025 protocol, and the headers of its calls. */
  async function someone(scopes: string[]) {
    const who = await someoneWith(t, scopes);
    const init = await rawMcp(t.url, initializeMessage, { authorization: `Bearer ${who.token}` });
    const headers = { authorization: `Bearer ${who.token}`, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': LEGACY };
    return { ...who, headers };
  }

  it('answers as the server answers the same call', async () => {
    const me = await someone(['read', 'write']);
    const other = await someone(['read', 'write']);
    const cases: [id: string | number, name: string, args?: unknown][] = [
      [1, 'get_task', { id: me.task.id }],
      ['a', 'get_task', { id: other.task.id }], // someone else's: not found
      [2, 'get_task', { id: me.task.id, extra: true }], // refused arguments
      [3, 'get_task'], // no arguments at all
      [4, 'list_tasks', { tree_id: me.tree.id, status: 'todo' }],
      [5, 'search', { q: 'task of' }],
      [6, 'complete_task', { id: me.task.id }],
      [7, 'create_task', { tree_id: other.tree.id, title: 'in a foreign tree' }],
      [8, 'transcribe_audio', { task_id: me.task.id, attachment_id: 'nope' }], // a tool this credential does not see
    ];
    const serverContexts = vi.spyOn(Server.prototype as unknown as { buildContext: () => unknown }, 'buildContext');
    for (const [id, name, args] of cases) {
      const params = { name, ...(args !== undefined ? { arguments: args } : {}) };
      const before = serverContexts.mock.calls.length;
      const direct = await rawMcp(t.url, { jsonrpc: '2.0', id, method: 'tools/call', params }, me.headers);
      const directly = serverContexts.mock.calls.length === before;
      const served = await rawMcp(t.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: {} } }, me.headers);
      expect(serverContexts.mock.calls.length, `${name} through the server`).toBeGreaterThan(before);
      expect({ status: direct.status, body: direct.json }, name).toEqual({ status: served.status, body: served.json });
      // Only a tool the credential does not see is left to the server.
      expect(directly, `${name} answered without the server`).toBe(name !== 'transcribe_audio');
    }
  });

  it('leaves anything not plain to the server, and still decides per call', async () => {
    const me = await someone(['read']);
    const call = (body: unknown, headers: Record<string, string> = me.headers) => rawMcp(t.url, body, headers);
    const get = { name: 'get_task', arguments: { id: me.task.id } };
    // A fractional id, a member it does not know, arguments that are no object, an unknown
    // revision, an Accept without event streams: each is the server's (or the transport's) to refuse.
    const serverContexts = vi.spyOn(Server.prototype as unknown as { buildContext: () => unknown }, 'buildContext');
    const refusals = [
      await call({ jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: get }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...get, task: 1 } }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_task', arguments: [] } }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: get }, { ...me.headers, 'mcp-protocol-version': '1999-01-01' }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: get }, { ...me.headers, accept: 'application/json' }),
    ];
    expect(refusals.map((answer) => [answer.status, answer.json.error?.code])).toEqual([[400, -32600], [200, -32602], [200, -32602], [400, -32000], [406, -32000]]);
    expect(serverContexts).toHaveBeenCalledTimes(2);

    expect((await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: get })).json.result.structuredContent.task.id).toBe(me.task.id);
    expect((await me.person.browser.delete(`/api/v1/tokens/${me.tokenId}`)).status).toBe(200);
    expect((await call({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: get })).status).toBe(401);
  });
});
