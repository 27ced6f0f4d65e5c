import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, toolErrorOf } from '../helpers/mcp.js';

describe.each(databases)('MCP on shared trees (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let tree: { id: string };
  let taskId: string;

  async function memberToken(role: 'viewer' | 'editor') {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role });
    await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    return { person, memberId: invited.body.member.id as string, ...(await makeToken(person)) };
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    tree = await makeTree(owner.browser, { name: 'Commons' });
    taskId = (await makeTask(owner.browser, tree.id, { title: 'Mend the fence' })).id;
  });
  afterAll(async () => t.stop());

  it('lets an editor read and write a shared tree through the tools and the resource', async () => {
    const { value } = await memberToken('editor');
    const mcp = await connectMcp(t.url, value);
    try {
      const trees = await mcp.client.callTool({ name: 'list_trees', arguments: {} });
      expect((trees.structuredContent as any).items.map((x: any) => [x.id, x.access])).toEqual([[tree.id, 'editor']]);
      const found = await mcp.client.callTool({ name: 'search', arguments: { q: 'fence' } });
      expect((found.structuredContent as any).items.map((x: any) => x.id)).toEqual([taskId]);
      const created = await mcp.client.callTool({
        name: 'create_task',
        arguments: { tree_id: tree.id, title: 'Paint the gate' },
      });
      expect(created.isError).toBeFalsy();
      const done = await mcp.client.callTool({ name: 'complete_task', arguments: { id: taskId } });
      expect(done.isError).toBeFalsy();
      const resource = await mcp.client.readResource({ uri: `service://tree/${tree.id}` });
      expect(JSON.parse((resource.contents[0] as any).text).tree.id).toBe(tree.id);
    } finally {
      await mcp.close();
    }
  });

  it("never lets a viewer's write tool succeed, and a revoked member loses the tree at the next call", async () => {
    const { value, memberId } = await memberToken('viewer');
    const mcp = await connectMcp(t.url, value);
    try {
      expect((await mcp.client.callTool({ name: 'get_task', arguments: { id: taskId } })).isError).toBeFalsy();
      for (const [name, args] of [
        ['create_task', { tree_id: tree.id, title: 'nope' }],
        ['complete_task', { id: taskId }],
      ] as const) {
        expect(toolErrorOf(await mcp.client.callTool({ name, arguments: args })).code, name).toBe('forbidden');
      }
      await owner.browser.delete(`/api/v1/members/${memberId}`);
      const gone = await mcp.client.callTool({ name: 'get_task', arguments: { id: taskId } });
      expect(toolErrorOf(gone).code).toBe('not_found');
      expect((await mcp.client.callTool({ name: 'list_trees', arguments: {} })).structuredContent).toMatchObject({
        items: [],
      });
    } finally {
      await mcp.close();
    }
  });
});
