import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { initializeMessage, rawMcp, toolErrorOf } from '../helpers/mcp.js';

const LEGACY = '2025-11-25';

/**
 * Tool calls of the 2025 revisions from many people at once with the same JSON-RPC id (every
 * client counts from 1): each must get its own answer, and a credential must never reach a tool
 * it cannot see because someone else is calling it at the same moment.
 */
describe.each(databases)('MCP 2025 tool calls made at once (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  async function someone(scopes: string[]) {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { value } = await makeToken(person, { scopes });
    const tree = await makeTree(person.browser);
    const task = await makeTask(person.browser, tree.id, { title: `task of ${person.email}` });
    const init = await rawMcp(t.url, initializeMessage, { authorization: `Bearer ${value}` });
    const headers = {
      authorization: `Bearer ${value}`,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': LEGACY,
    };
    return { task, tree, headers };
  }

  it("answers each of many simultaneous calls with the same id with its own caller's task", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => someone(['read', 'write'])));
    const calls = people
      .flatMap((p) => Array.from({ length: 10 }, () => p))
      .map(async (p) => {
        const answer = await rawMcp(
          t.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_task', arguments: { id: p.task.id } } },
          p.headers,
        );
        return { p, answer };
      });
    for (const { p, answer } of await Promise.all(calls)) {
      expect(answer.status).toBe(200);
      expect(answer.json.id).toBe(1);
      expect(answer.json.result.structuredContent.task).toMatchObject({ id: p.task.id, title: p.task.title });
    }
    // A task of someone else stays not found, however the calls interleave.
    const [a, b] = people;
    const foreign = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        rawMcp(
          t.url,
          {
            jsonrpc: '2.0',
            id: `x${i}`,
            method: 'tools/call',
            params: { name: 'get_task', arguments: { id: b!.task.id } },
          },
          a!.headers,
        ),
      ),
    );
    for (const [i, answer] of foreign.entries()) {
      expect(answer.json.id).toBe(`x${i}`);
      expect(toolErrorOf(answer.json.result).code).toBe('not_found');
    }
  });

  it('keeps a read-only credential away from write tools while writers call them', async () => {
    const writer = await someone(['read', 'write']);
    const reader = await someone(['read']);
    const create = (who: typeof writer, id: number) =>
      rawMcp(
        t.url,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'create_task', arguments: { tree_id: who.tree.id, title: 'new' } },
        },
        who.headers,
      );
    const [written, refused] = await Promise.all([create(writer, 7), create(reader, 7)]);
    expect(written.json.result.structuredContent.task.title).toBe('new');
    expect(refused.json.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not found/) });
    const listed = await rawMcp(t.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, reader.headers);
    expect(listed.json.result.tools.map((tool: { name: string }) => tool.name)).not.toContain('create_task');
  });
});
