import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Server } from '@modelcontextprotocol/server';
import { databases, makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';
import { initializeMessage, MODERN, rawMcp } from '../helpers/mcp.js';

const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * What differs between two answers to the same call made twice: the request id, and what the
 * call itself made or stamped (a new task or speech job, timestamps, a new task's place, a
 * signed link's expiry), each replaced by a stand-in; the rest of the answer's bytes stay as sent.
 */
function normalized(answer: Awaited<ReturnType<typeof rawMcp>>): string {
  return (
    answer.text
      .replace(/\b(tsk|spj)_[0-9A-Za-z]+/g, '$1_NEW')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
      .replace(/(\\?"position\\?":)\d+/g, '$1-1')
      // A change the first of the two calls made, the second (on the same data) may not: either names none or one.
      .replace(/(\\?"change_id\\?":)(null|\\?"chg_[0-9A-Za-z]+\\?")/g, '$1null')
      .replace(/(\\?"content_url\\?":\\?")[^"\\]*/g, '$1LINK')
      .replace(/"request_id":"[^"]*"/g, '"request_id":"R"')
  );
}

/** An answer as JSON-RPC readers see it (keys sorted: they do not depend on member order), and its status and type. */
function comparable(answer: Awaited<ReturnType<typeof rawMcp>>) {
  const text = normalized(answer);
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return { status: answer.status, type: answer.headers.get('content-type'), body: sorted(JSON.parse(text)) };
}

/**
 * The fast path (src/http/mcp/fast-path.ts) answers plain tools/calls without the SDK's
 * transport. Its answers must be the SDK's: every tool, succeeding and refused, in both eras,
 * is sent to a service with the fast path and to one with MCP_FAST_PATH=off on the same data,
 * and the answers must be the same. When the pinned SDK is upgraded and answers differently,
 * this fails.
 */
describe.each(databases)('MCP fast path against the SDK (%s)', (kind) => {
  let env: TestEnv;
  let fast: Running;
  let sdk: Running;
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  beforeAll(async () => {
    provider = await startFakeSpeech(['ok']);
    env = makeTestEnv(kind, { SPEECH_API_URL: provider.url });
    fast = await startApp(env);
    sdk = await startApp(env, { mcpFastPath: false });
  });
  afterAll(async () => {
    await fast?.close();
    await sdk?.close();
    await env?.dispose();
    await provider?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function someone(scopes: string[]) {
    const person = await makeUser(fast.url, fast.app, { plan: 'sprout' });
    const made = await makeToken(person, { scopes });
    const tree = await makeTree(person.browser);
    const task = await makeTask(person.browser, tree.id, { title: `task of ${person.email}` });
    const { body } = await upload(made.agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data: Buffer.from('audio bytes'), name: 'memo.webm', type: 'audio/webm' },
    ]);
    return {
      person,
      token: made.value,
      tokenId: made.token.id,
      tree,
      task,
      attachment: body.attachment as { id: string },
    };
  }

  it('answers every tool, succeeding and refused, in both eras, as the SDK does', async () => {
    const me = await someone(['read', 'write', 'attachments']);
    const other = await someone(['read', 'write', 'attachments']);
    const cases: [name: string, args: unknown][] = [
      ['list_trees', { limit: 5 }],
      ['list_trees', { limit: 0 }],
      ['list_tasks', { tree_id: me.tree.id }],
      ['list_tasks', { status: 'someday' }],
      ['get_task', { id: me.task.id }],
      ['get_task', { id: other.task.id }],
      ['get_task', undefined],
      ['search', { q: 'task of' }],
      ['search', { q: 'x', extra: true }],
      ['create_task', { tree_id: me.tree.id, title: 'made twice' }],
      ['create_task', { tree_id: other.tree.id, title: 'foreign' }],
      ['complete_task', { id: me.task.id }],
      ['complete_task', { id: other.task.id }],
      ['get_attachment', { id: me.attachment.id }],
      ['get_attachment', { id: other.attachment.id }],
      ['transcribe_audio', { task_id: me.task.id, attachment_id: me.attachment.id }],
      ['transcribe_audio', { task_id: me.task.id, attachment_id: 'att_missing' }],
    ];
    const opened = await rawMcp(fast.url, initializeMessage, { authorization: `Bearer ${me.token}` });
    // A session lives in the database, so either service serves it.
    const session = {
      authorization: `Bearer ${me.token}`,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': LEGACY,
    };
    const eras = {
      [LEGACY]: (name: string, args: unknown) => ({
        body: {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name, ...(args !== undefined ? { arguments: args } : {}) },
        },
        headers: session,
      }),
      [MODERN]: (name: string, args: unknown) => ({
        body: {
          jsonrpc: '2.0',
          id: 'm',
          method: 'tools/call',
          params: { name, ...(args !== undefined ? { arguments: args } : {}), _meta: ENVELOPE },
        },
        headers: {
          authorization: `Bearer ${me.token}`,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
      }),
    };
    const serverContexts = vi.spyOn(Server.prototype as unknown as { buildContext: () => unknown }, 'buildContext');
    const outcomes = new Set<string>();
    for (const [era, request] of Object.entries(eras)) {
      for (const [name, args] of cases) {
        const { body, headers } = request(name, args);
        const before = serverContexts.mock.calls.length;
        const fastAnswer = await rawMcp(fast.url, body, headers);
        expect(serverContexts.mock.calls.length, `${era} ${name}: answered by the fast path`).toBe(before);
        const sdkAnswer = await rawMcp(sdk.url, body, headers);
        expect(serverContexts.mock.calls.length, `${era} ${name}: answered by the SDK`).toBeGreaterThan(before);
        expect(comparable(fastAnswer), `${era} ${name} ${JSON.stringify(args)}`).toEqual(comparable(sdkAnswer));
        // Byte for byte too (the stand-ins aside): the same members in the same order, the same spacing.
        expect(normalized(fastAnswer), `${era} ${name} ${JSON.stringify(args)}: bytes`).toBe(normalized(sdkAnswer));
        outcomes.add(`${name} ${fastAnswer.json.result.isError === true ? 'refused' : 'succeeded'}`);
      }
    }
    // Every tool both succeeded and was refused, so the comparison covered both kinds of answer.
    expect([...outcomes].sort()).toEqual(
      cases
        .map(([name]) => name)
        .flatMap((name) => [`${name} refused`, `${name} succeeded`])
        .filter((x, i, all) => all.indexOf(x) === i)
        .sort(),
    );
  });

  it('keeps a 2026-07-28 classification only for the very envelope and headers it was asked for', async () => {
    const me = await someone(['read']);
    const headers = (name = 'get_task') => ({
      authorization: `Bearer ${me.token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    });
    const call = (envelope: Record<string, unknown>, name = 'get_task') =>
      rawMcp(
        fast.url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name, arguments: { id: me.task.id }, _meta: envelope },
        },
        headers(name),
      );
    const clientInfo = 'io.modelcontextprotocol/clientInfo';
    // Kept after the first call, the classification answers the same envelope in another member order.
    expect((await call(ENVELOPE)).json.result.structuredContent.task.id).toBe(me.task.id);
    const reordered = Object.fromEntries(Object.entries(ENVELOPE).reverse());
    expect((await call(reordered)).json.result.structuredContent.task.id).toBe(me.task.id);
    // An envelope that differs from a kept one only inside clientInfo is the SDK's to judge, and refuse.
    for (const info of [
      { name: 'raw-agent' },
      { name: 'raw-agent', version: 1 },
      { name: 'raw-agent', version: '1', x: [] },
    ]) {
      const fromSdk = await rawMcp(
        sdk.url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_task', arguments: { id: me.task.id }, _meta: { ...ENVELOPE, [clientInfo]: info } },
        },
        headers(),
      );
      expect(comparable(await call({ ...ENVELOPE, [clientInfo]: info }))).toEqual(comparable(fromSdk));
    }
    expect((await call({ ...ENVELOPE, [clientInfo]: { name: 'raw-agent' } })).status).toBe(400);
    // A kept classification answers no call whose headers disagree with it: another Mcp-Name is refused.
    const mismatched = await rawMcp(
      fast.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_task', arguments: { id: me.task.id }, _meta: ENVELOPE },
      },
      headers('list_trees'),
    );
    expect(mismatched.status).toBe(400);
  });

  it('leaves anything not plain to the SDK, and still decides per call', async () => {
    const me = await someone(['read']);
    const opened = await rawMcp(fast.url, initializeMessage, { authorization: `Bearer ${me.token}` });
    const session = {
      authorization: `Bearer ${me.token}`,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': LEGACY,
    };
    const call = (body: unknown, headers: Record<string, string> = session) => rawMcp(fast.url, body, headers);
    const get = { name: 'get_task', arguments: { id: me.task.id } };
    // A fractional id, a member it does not know, arguments that are no object, an unknown
    // revision, an Accept without event streams: each is the SDK's to refuse.
    const serverContexts = vi.spyOn(Server.prototype as unknown as { buildContext: () => unknown }, 'buildContext');
    const refusals = [
      await call({ jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: get }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...get, task: 1 } }),
      await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_task', arguments: [] } }),
      await call(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: get },
        { ...session, 'mcp-protocol-version': '1999-01-01' },
      ),
      await call(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: get },
        { ...session, accept: 'application/json' },
      ),
    ];
    expect(refusals.map((answer) => [answer.status, answer.json.error?.code])).toEqual([
      [400, -32600],
      [200, -32602],
      [200, -32602],
      [400, -32000],
      [406, -32000],
    ]);
    expect(serverContexts).toHaveBeenCalledTimes(2);

    expect(
      (await call({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: get })).json.result.structuredContent.task.id,
    ).toBe(me.task.id);
    expect((await me.person.browser.delete(`/api/v1/tokens/${me.tokenId}`)).status).toBe(200);
    expect((await call({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: get })).status).toBe(401);
  });
});
