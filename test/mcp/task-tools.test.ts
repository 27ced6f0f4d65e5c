import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { connectMcp, toolErrorOf, type McpConnection } from '../helpers/mcp.js';

/** A successful tool result: its structured content, checked to equal its JSON text. */
function okOf(result: any): any {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/**
 * CONTRACT §17's task, comment and history tools through the official SDK client, in both
 * protocol eras: each does what its REST route does, carries the change it wrote, and refuses
 * as the route refuses (validation, not found, foreign, stale version, out of scope).
 */
describe.each(databases)('MCP task, comment and history tools (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Rest;
  let token: string;
  let bobTask: any;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice, { scopes: ['read', 'write'] });
    agent = made.agent;
    token = made.value;
    const bob = await makeUser(t.url, t.app, { plan: 'sprout' });
    const bobAgent = (await makeToken(bob, { scopes: ['read', 'write'] })).agent;
    bobTask = await makeTask(bobAgent, (await makeTree(bobAgent, { name: 'Bob' })).id, { title: 'Bob only' });
  });
  afterAll(async () => t.stop());

  for (const modern of [false, true]) {
    describe(modern ? '2026-07-28' : '2025-11-25', () => {
      let mcp: McpConnection;
      const call = (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });
      beforeAll(async () => {
        mcp = await connectMcp(t.url, token, { modern });
      });
      afterAll(async () => mcp.close());

      it('update_task changes and moves a task as PATCH /tasks/{id} does, with the version read', async () => {
        const tree = await makeTree(agent);
        const project = await makeProject(agent, tree.id);
        const task = await makeTask(agent, tree.id, { title: 'Sow' });
        const result = okOf(
          await call('update_task', {
            id: task.id,
            expected_version: 1,
            title: 'Sow beans',
            project_id: project.id,
            deadline: '2026-12-01',
          }),
        );
        expect(result.task).toMatchObject({ id: task.id, title: 'Sow beans', project_id: project.id, version: 2 });
        expect(Object.keys(result).sort()).toEqual(['change_id', 'task']);
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task).toEqual(result.task);

        // A stale version changes nothing and tells the current one.
        const stale = toolErrorOf(await call('update_task', { id: task.id, expected_version: 1, title: 'Lost' }));
        expect(stale).toEqual({
          code: 'precondition_failed',
          message: expect.any(String),
          details: [{ current_version: 2 }],
        });
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task.title).toBe('Sow beans');

        // Nothing to change: the task as it is, no change written.
        const same = okOf(await call('update_task', { id: task.id, expected_version: 2, title: 'Sow beans' }));
        expect(same).toEqual({ task: result.task, change_id: null });

        expect(toolErrorOf(await call('update_task', { id: task.id, title: 'x' }))).toMatchObject({
          code: 'validation_failed',
          details: [{ path: '/expected_version' }],
        });
        expect(toolErrorOf(await call('update_task', { id: task.id, expected_version: 2, title: ' ' })).code).toBe(
          'validation_failed',
        );
        expect(
          toolErrorOf(await call('update_task', { id: task.id, expected_version: 2, status: 'someday' })).details,
        ).toEqual([{ path: '/status', message: expect.any(String) }]);
        expect(toolErrorOf(await call('update_task', { id: 'tsk_nope', expected_version: 1, title: 'x' })).code).toBe(
          'not_found',
        );
        expect(toolErrorOf(await call('update_task', { id: bobTask.id, expected_version: 1, title: 'x' })).code).toBe(
          'not_found',
        );
        const elsewhere = await makeProject(agent, (await makeTree(agent)).id);
        expect(
          toolErrorOf(await call('update_task', { id: task.id, expected_version: 2, project_id: elsewhere.id })).code,
        ).toBe('conflict');
      });

      it('delete_task deletes as DELETE /tasks/{id} does, only at the version read', async () => {
        const tree = await makeTree(agent);
        const task = await makeTask(agent, tree.id);
        await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Renamed' });
        expect(toolErrorOf(await call('delete_task', { id: task.id, expected_version: 1 }))).toMatchObject({
          code: 'precondition_failed',
          details: [{ current_version: 2 }],
        });
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).status).toBe(200);
        expect(toolErrorOf(await call('delete_task', { id: task.id })).code).toBe('validation_failed');
        const deleted = okOf(await call('delete_task', { id: task.id, expected_version: 2 }));
        expect(deleted).toMatchObject({ ok: true });
        expect(Object.keys(deleted).sort()).toEqual(['change_id', 'ok']);
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).status).toBe(404);
        expect(toolErrorOf(await call('delete_task', { id: task.id, expected_version: 2 })).code).toBe('not_found');
        expect(toolErrorOf(await call('delete_task', { id: bobTask.id, expected_version: 1 })).code).toBe('not_found');
        expect(
          (await t.app.deps.db.selectFrom('tasks').select('id').where('id', '=', bobTask.id).execute()).length,
        ).toBe(1);
      });

      it('assign_task sets the assignees as PUT /tasks/{id}/assignees does', async () => {
        const tree = await makeTree(agent);
        const task = await makeTask(agent, tree.id);
        const assigned = okOf(
          await call('assign_task', { id: task.id, expected_version: 1, user_ids: [alice.user.id] }),
        );
        expect(assigned.task).toMatchObject({ assignee_ids: [alice.user.id], version: 2 });
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task.assignee_ids).toEqual([alice.user.id]);
        expect(
          toolErrorOf(await call('assign_task', { id: task.id, expected_version: 1, user_ids: [] })),
        ).toMatchObject({
          code: 'precondition_failed',
          details: [{ current_version: 2 }],
        });
        expect(toolErrorOf(await call('assign_task', { id: task.id, expected_version: 2 }))).toMatchObject({
          code: 'validation_failed',
          details: [{ path: '/user_ids' }],
        });
        expect(
          toolErrorOf(await call('assign_task', { id: bobTask.id, expected_version: 1, user_ids: [alice.user.id] }))
            .code,
        ).toBe('not_found');
        const unassigned = okOf(await call('assign_task', { id: task.id, expected_version: 2, user_ids: [] }));
        expect(unassigned.task.assignee_ids).toEqual([]);
      });

      it('add_comment and list_comments work as the comment routes do', async () => {
        const tree = await makeTree(agent);
        const task = await makeTask(agent, tree.id);
        const added = okOf(await call('add_comment', { task_id: task.id, body: 'Done the first bed' }));
        expect(added.comment).toMatchObject({ task_id: task.id, body: 'Done the first bed' });
        expect(Object.keys(added).sort()).toEqual(['change_id', 'comment']);
        okOf(await call('add_comment', { task_id: task.id, body: 'and the second' }));
        const listed = okOf(await call('list_comments', { task_id: task.id, limit: 1 }));
        expect(listed.items.map((c: any) => c.body)).toEqual(['Done the first bed']);
        const rest = await agent.get(`/api/v1/tasks/${task.id}/comments?limit=1`);
        expect(listed.items).toEqual(rest.body.items);
        const next = okOf(await call('list_comments', { task_id: task.id, limit: 1, cursor: listed.next_cursor }));
        expect(next).toMatchObject({ items: [{ body: 'and the second' }], next_cursor: null });

        expect(toolErrorOf(await call('add_comment', { task_id: task.id, body: '' })).code).toBe('validation_failed');
        expect(toolErrorOf(await call('add_comment', { task_id: bobTask.id, body: 'hi' })).code).toBe('not_found');
        expect(toolErrorOf(await call('list_comments', { task_id: bobTask.id })).code).toBe('not_found');
        expect(toolErrorOf(await call('list_comments', { task_id: task.id, limit: 0 })).code).toBe('validation_failed');
      });

      it("get_history reads a tree's history as GET /trees/{id}/history does", async () => {
        const tree = await makeTree(agent);
        const created = okOf(await call('create_task', { tree_id: tree.id, title: 'Weed' }));
        okOf(await call('update_task', { id: created.task.id, expected_version: 1, status: 'done' }));
        const history = okOf(await call('get_history', { tree_id: tree.id }));
        expect(history.items.map((h: any) => [h.entity_id, h.action, h.via])).toEqual(
          expect.arrayContaining([
            [created.task.id, 'completed', 'mcp'],
            [created.task.id, 'created', 'mcp'],
          ]),
        );
        expect(history.items).toEqual((await agent.get(`/api/v1/trees/${tree.id}/history`)).body.items);
        expect(toolErrorOf(await call('get_history', { tree_id: 'tre_nope' })).code).toBe('not_found');
        expect(toolErrorOf(await call('get_history', { tree_id: tree.id, limit: 1000 })).code).toBe(
          'validation_failed',
        );
      });
    });
  }

  it("keeps a scoped credential's tools inside its trees", async () => {
    const inside = await makeTree(agent, { name: 'Inside' });
    const outside = await makeTree(agent, { name: 'Outside' });
    const inTask = await makeTask(agent, inside.id);
    const outTask = await makeTask(agent, outside.id);
    const scoped = await makeToken(alice, { scopes: ['read', 'write'], tree_ids: [inside.id] });
    const mcp = await connectMcp(t.url, scoped.value);
    const call = (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });
    try {
      okOf(await call('update_task', { id: inTask.id, expected_version: 1, title: 'Mine' }));
      for (const [name, args] of [
        ['update_task', { id: outTask.id, expected_version: 1, title: 'x' }],
        ['update_task', { id: inTask.id, expected_version: 2, tree_id: outside.id }],
        ['delete_task', { id: outTask.id, expected_version: 1 }],
        ['assign_task', { id: outTask.id, expected_version: 1, user_ids: [] }],
        ['add_comment', { task_id: outTask.id, body: 'x' }],
        ['list_comments', { task_id: outTask.id }],
        ['get_history', { tree_id: outside.id }],
      ] as const) {
        expect(toolErrorOf(await call(name, args)).code, name).toBe('not_found');
      }
      const after = (await agent.get(`/api/v1/tasks/${outTask.id}`)).body.task;
      expect(after).toMatchObject({ title: outTask.title, version: 1 });
    } finally {
      await mcp.close();
    }
  });
});
