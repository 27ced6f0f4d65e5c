import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { connectMcp, toolErrorOf, type McpConnection } from '../helpers/mcp.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/** A successful tool result: its structured content, checked to equal its JSON text. */
function okOf(result: any): any {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

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

      it('list_projects, create_project and update_project work as the project routes do', async () => {
        const tree = await makeTree(agent, { name: 'Allotment' });
        const created = okOf(
          await mcp.client.callTool({ name: 'create_project', arguments: { tree_id: tree.id, name: 'Beans' } }),
        );
        expect(created.project).toMatchObject({ tree_id: tree.id, name: 'Beans', version: 1 });
        expect(Object.keys(created).sort()).toEqual(['change_id', 'project']);
        const child = okOf(
          await mcp.client.callTool({
            name: 'create_project',
            arguments: { tree_id: tree.id, name: 'Runner beans', parent_id: created.project.id },
          }),
        ).project;
        expect((await agent.get(`/api/v1/projects/${child.id}`)).body.project).toEqual(child);

        const listed = okOf(await mcp.client.callTool({ name: 'list_projects', arguments: { tree_id: tree.id } }));
        expect(listed).toEqual((await agent.get(`/api/v1/projects?tree_id=${tree.id}`)).body);
        expect(listed.items.map((p: any) => p.name)).toEqual(['Beans', 'Runner beans']);
        const paged = okOf(
          await mcp.client.callTool({ name: 'list_projects', arguments: { tree_id: tree.id, limit: 1 } }),
        );
        expect(paged.items).toHaveLength(1);
        expect(paged.next_cursor).toEqual(expect.any(String));

        const updated = okOf(
          await mcp.client.callTool({
            name: 'update_project',
            arguments: { id: created.project.id, expected_version: 1, name: 'Broad beans', color: '#336699' },
          }),
        );
        expect(updated.project).toMatchObject({ name: 'Broad beans', color: '#336699', version: 2 });
        expect((await agent.get(`/api/v1/projects/${created.project.id}`)).body.project).toEqual(updated.project);

        const refused = async (name: string, args: Record<string, unknown>) =>
          toolErrorOf(await mcp.client.callTool({ name, arguments: args }));
        expect(await refused('update_project', { id: created.project.id, expected_version: 1, name: 'x' })).toEqual({
          code: 'precondition_failed',
          message: expect.any(String),
          details: [{ current_version: 2 }],
        });
        expect((await refused('update_project', { id: created.project.id, name: 'x' })).details).toEqual([
          { path: '/expected_version', message: expect.any(String) },
        ]);
        expect((await refused('create_project', { tree_id: tree.id, name: '' })).code).toBe('validation_failed');
        expect((await refused('create_project', { tree_id: tree.id })).details).toEqual([
          { path: '/name', message: expect.any(String) },
        ]);
        expect((await refused('create_project', { tree_id: bobTree.id, name: 'x' })).code).toBe('not_found');
        expect((await refused('update_project', { id: 'prj_nope', expected_version: 1, name: 'x' })).code).toBe(
          'not_found',
        );
        // A cycle: a project under its own child.
        expect(
          (await refused('update_project', { id: created.project.id, expected_version: 2, parent_id: child.id })).code,
        ).toBe('conflict');
        expect((await refused('list_projects', { tree_id: bobTree.id })).code).toBe('not_found');
        expect((await refused('list_projects', { limit: 0 })).code).toBe('validation_failed');
        expect((await agent.get(`/api/v1/projects?tree_id=${tree.id}`)).body.items).toHaveLength(2);
      });
    });
  }

  it("create_project refuses past the plan's projects per tree, writing nothing", async () => {
    const tree = await makeTree(agent);
    const { planLimits } = await import('../../src/domain/plans.js');
    await t.app.deps.db
      .updateTable('trees')
      .set({ project_count: planLimits.sprout.projectsPerTree })
      .where('id', '=', tree.id)
      .execute();
    const mcp = await connectMcp(t.url, token);
    try {
      const refused = toolErrorOf(
        await mcp.client.callTool({ name: 'create_project', arguments: { tree_id: tree.id, name: 'One more' } }),
      );
      expect(refused).toMatchObject({ code: 'plan_limit_reached', details: [{ limit: 'projects_per_tree' }] });
      expect((await agent.get(`/api/v1/projects?tree_id=${tree.id}`)).body.items).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('hides the write tools from a Seed and a read-only credential: calling one is an unknown tool', async () => {
    const tree = await makeTree(agent);
    // A Seed account cannot make a write token: it is made on Sprout, then the plan lapses to Seed.
    const seedUser = await makeUser(t.url, t.app, { plan: 'sprout' });
    const seed = await makeToken(seedUser, { scopes: ['read', 'write'] });
    await setUserPlan(t.app.deps, seedUser.email, 'seed', null);
    const reader = await makeToken(alice, { scopes: ['read'] });
    for (const value of [seed.value, reader.value]) {
      const mcp = await connectMcp(t.url, value);
      try {
        for (const [name, args] of [
          ['create_project', { tree_id: tree.id, name: 'x' }],
          ['update_project', { id: 'prj_x', expected_version: 1, name: 'x' }],
        ] as const) {
          await expect(mcp.client.callTool({ name, arguments: args })).rejects.toThrow(/not found/i);
        }
        okOf(await mcp.client.callTool({ name: 'list_projects', arguments: {} }));
      } finally {
        await mcp.close();
      }
    }
    expect((await agent.get(`/api/v1/projects?tree_id=${tree.id}`)).body.items).toEqual([]);
  });

  it('get_tree of a scoped credential sees its trees only', async () => {
    const inside = await makeTree(agent, { name: 'Inside' });
    const outside = await makeTree(agent, { name: 'Outside' });
    const scoped = await makeToken(alice, { scopes: ['read', 'write'], tree_ids: [inside.id] });
    const mcp = await connectMcp(t.url, scoped.value);
    try {
      const got = await mcp.client.callTool({ name: 'get_tree', arguments: { id: inside.id } });
      expect((got.structuredContent as any).tree.id).toBe(inside.id);
      const hidden = await makeProject(agent, outside.id, { name: 'Hidden' });
      const all = okOf(await mcp.client.callTool({ name: 'list_projects', arguments: {} }));
      expect(all.items.map((p: any) => p.name)).not.toContain('Hidden');
      okOf(await mcp.client.callTool({ name: 'create_project', arguments: { tree_id: inside.id, name: 'Seen' } }));
      for (const [name, args] of [
        ['create_project', { tree_id: outside.id, name: 'x' }],
        ['update_project', { id: hidden.id, expected_version: 1, name: 'x' }],
      ] as const) {
        expect(toolErrorOf(await mcp.client.callTool({ name, arguments: args })).code, name).toBe('not_found');
      }
      expect((await agent.get(`/api/v1/projects/${hidden.id}`)).body.project.name).toBe('Hidden');
      expect(toolErrorOf(await mcp.client.callTool({ name: 'get_tree', arguments: { id: outside.id } })).code).toBe(
        'not_found',
      );
      expect(
        toolErrorOf(await mcp.client.callTool({ name: 'list_projects', arguments: { tree_id: outside.id } })).code,
      ).toBe('not_found');
    } finally {
      await mcp.close();
    }
  });
});
