import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { connectMcp, toolErrorOf, type McpConnection } from '../helpers/mcp.js';

/**
 * CONTRACT §17's tree and project tools through the official SDK client, both protocol eras:
 * each answers what its REST route answers, and refuses what it refuses.
 */
describe.each(databases)('MCP tree and project tools (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Rest;
  let token: string;
  let bobTree: any;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice, { scopes: ['read', 'write'] });
    agent = made.agent;
    token = made.value;
    const bob = await makeUser(t.url, t.app, { plan: 'sprout' });
    bobTree = await makeTree((await makeToken(bob, { scopes: ['read', 'write'] })).agent, { name: 'Bob' });
  });
  afterAll(async () => t.stop());

  for (const modern of [false, true]) {
    describe(modern ? '2026-07-28' : '2025-11-25', () => {
      let mcp: McpConnection;
      beforeAll(async () => {
        mcp = await connectMcp(t.url, token, { modern });
      });
      afterAll(async () => mcp.close());

      it('get_tree answers the snapshot of GET /trees/{id}, and refuses what it refuses', async () => {
        const tree = await makeTree(agent, { name: 'Orchard' });
        const project = await makeProject(agent, tree.id, { name: 'Pears' });
        await makeTask(agent, tree.id, { project_id: project.id, title: 'Prune' });
        await makeTask(agent, tree.id, { title: 'Loose' });
        const got = await mcp.client.callTool({ name: 'get_tree', arguments: { id: tree.id } });
        expect(got.isError).toBeFalsy();
        const rest = await agent.get(`/api/v1/trees/${tree.id}`);
        expect(got.structuredContent).toEqual(rest.body);
        expect(JSON.parse((got.content as any)[0].text)).toEqual(rest.body);

        expect(toolErrorOf(await mcp.client.callTool({ name: 'get_tree', arguments: { id: bobTree.id } }))).toEqual({
          code: 'not_found',
          message: expect.any(String),
        });
        expect(toolErrorOf(await mcp.client.callTool({ name: 'get_tree', arguments: { id: 'tre_nope' } })).code).toBe(
          'not_found',
        );
        expect(toolErrorOf(await mcp.client.callTool({ name: 'get_tree', arguments: {} }))).toMatchObject({
          code: 'validation_failed',
          details: [{ path: '/id' }],
        });
      });
    });
  }

  it('get_tree of a scoped credential sees its trees only', async () => {
    const inside = await makeTree(agent, { name: 'Inside' });
    const outside = await makeTree(agent, { name: 'Outside' });
    const scoped = await makeToken(alice, { scopes: ['read'], tree_ids: [inside.id] });
    const mcp = await connectMcp(t.url, scoped.value);
    try {
      const got = await mcp.client.callTool({ name: 'get_tree', arguments: { id: inside.id } });
      expect((got.structuredContent as any).tree.id).toBe(inside.id);
      expect(toolErrorOf(await mcp.client.callTool({ name: 'get_tree', arguments: { id: outside.id } })).code).toBe(
        'not_found',
      );
    } finally {
      await mcp.close();
    }
  });
});
