import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { connectMcp, toolErrorOf, type McpConnection } from '../helpers/mcp.js';

function okOf(result: any): any {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/**
 * CONTRACT §17's batches over MCP, `create_tasks` and `update_tasks`: 1 to 50 items, every item
 * or none, one change, results in input order, and a refusal naming every bad item by its index.
 */
describe.each(databases)('MCP task batches (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Rest;
  let token: string;
  let bobTree: any;
  let bobProject: any;
  let bobTask: any;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice, { scopes: ['read', 'write'] });
    agent = made.agent;
    token = made.value;
    const bob = await makeUser(t.url, t.app, { plan: 'sprout' });
    const bobAgent = (await makeToken(bob, { scopes: ['read', 'write'] })).agent;
    bobTree = await makeTree(bobAgent, { name: 'Bob' });
    bobProject = await makeProject(bobAgent, bobTree.id);
    bobTask = await makeTask(bobAgent, bobTree.id);
  });
  afterAll(async () => t.stop());

  const tasksOf = async (treeId: string) => (await agent.get(`/api/v1/tasks?tree_id=${treeId}&limit=200`)).body.items;

  for (const modern of [false, true]) {
    describe(modern ? '2026-07-28' : '2025-11-25', () => {
      let mcp: McpConnection;
      const call = (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });
      beforeAll(async () => {
        mcp = await connectMcp(t.url, token, { modern });
      });
      afterAll(async () => mcp.close());

      it('create_tasks creates every task in input order, as one change', async () => {
        const tree = await makeTree(agent);
        const project = await makeProject(agent, tree.id);
        await makeTask(agent, tree.id, { title: 'Already there' });
        const result = okOf(
          await call('create_tasks', {
            tree_id: tree.id,
            tasks: [
              { title: 'One' },
              { title: 'Two', project_id: project.id, status: 'open', deadline: '2026-12-24' },
              { title: 'Three', notes: 'n', color: '#112233' },
            ],
          }),
        );
        expect(Object.keys(result).sort()).toEqual(['change_id', 'tasks']);
        expect(result.tasks.map((x: any) => [x.title, x.tree_id, x.project_id, x.version])).toEqual([
          ['One', tree.id, null, 1],
          ['Two', tree.id, project.id, 1],
          ['Three', tree.id, null, 1],
        ]);
        // Places after the last sibling, in order, as one create after another would give.
        const loose = result.tasks.filter((x: any) => x.project_id === null).map((x: any) => x.position);
        expect(loose[1]).toBeGreaterThan(loose[0]);
        const stored = await tasksOf(tree.id);
        for (const task of result.tasks) expect(stored).toContainEqual(task);
        const history = (await agent.get(`/api/v1/trees/${tree.id}/history`)).body.items;
        const created = history.filter((h: any) => result.tasks.some((x: any) => x.id === h.entity_id));
        expect(created.map((h: any) => h.action)).toEqual(['created', 'created', 'created']);
        expect(new Set(created.map((h: any) => h.at)).size).toBe(1);
      });

      it('create_tasks writes nothing when any item is bad, naming every bad item by index', async () => {
        const tree = await makeTree(agent);
        const invalid = toolErrorOf(
          await call('create_tasks', {
            tree_id: tree.id,
            tasks: [{ title: 'ok' }, { title: ' ' }, { title: 'ok' }, { title: 'x', status: 'someday' }],
          }),
        );
        expect(invalid.code).toBe('validation_failed');
        expect(invalid.details).toEqual([
          { index: 1, path: '/title', message: expect.any(String) },
          { index: 3, path: '/status', message: expect.any(String) },
        ]);
        expect(
          toolErrorOf(
            await call('create_tasks', { tree_id: tree.id, tasks: [{ title: 'x', deadline: '2026-02-30' }] }),
          ),
        ).toMatchObject({ code: 'validation_failed', details: [{ index: 0, path: '/deadline' }] });
        expect(toolErrorOf(await call('create_tasks', { tree_id: tree.id, tasks: [] })).code).toBe('validation_failed');
        const many = Array.from({ length: 51 }, (_, i) => ({ title: `t${i}` }));
        expect(toolErrorOf(await call('create_tasks', { tree_id: tree.id, tasks: many })).code).toBe(
          'validation_failed',
        );

        const project = await makeProject(agent, tree.id);
        const missing = toolErrorOf(
          await call('create_tasks', {
            tree_id: tree.id,
            tasks: [
              { title: 'a', project_id: bobProject.id },
              { title: 'b', project_id: project.id },
              { title: 'c', project_id: 'prj_nope' },
            ],
          }),
        );
        expect(missing).toEqual({
          code: 'not_found',
          message: expect.any(String),
          details: [{ index: 0 }, { index: 2 }],
        });
        expect(
          toolErrorOf(await call('create_tasks', { tree_id: bobTree.id, tasks: [{ title: 'a' }, { title: 'b' }] })),
        ).toMatchObject({ code: 'not_found', details: [{ index: 0 }, { index: 1 }] });
        expect(await tasksOf(tree.id)).toEqual([]);
      });

      it('update_tasks updates every task at its version, or none', async () => {
        const tree = await makeTree(agent);
        const [a, b, c] = [
          await makeTask(agent, tree.id, { title: 'a' }),
          await makeTask(agent, tree.id, { title: 'b' }),
          await makeTask(agent, tree.id, { title: 'c' }),
        ];
        await agent.patch(`/api/v1/tasks/${b.id}`, { notes: 'moved on' });
        const stale = toolErrorOf(
          await call('update_tasks', {
            updates: [
              { id: a.id, expected_version: 1, status: 'done' },
              { id: b.id, expected_version: 1, status: 'done' },
              { id: c.id, expected_version: 1, status: 'done' },
            ],
          }),
        );
        expect(stale).toEqual({
          code: 'precondition_failed',
          message: expect.any(String),
          details: [{ index: 1, current_version: 2 }],
        });
        expect((await tasksOf(tree.id)).map((x: any) => [x.title, x.status, x.version])).toEqual([
          ['a', 'todo', 1],
          ['b', 'todo', 2],
          ['c', 'todo', 1],
        ]);

        const missing = toolErrorOf(
          await call('update_tasks', {
            updates: [
              { id: 'tsk_nope', expected_version: 1, title: 'x' },
              { id: a.id, expected_version: 1, title: 'x' },
              { id: bobTask.id, expected_version: 1 },
            ],
          }),
        );
        expect(missing).toMatchObject({ code: 'not_found', details: [{ index: 0 }, { index: 2 }] });

        const invalid = toolErrorOf(
          await call('update_tasks', {
            updates: [
              { id: a.id, expected_version: 1, title: ' ' },
              { id: b.id, title: 'no version' },
              { id: a.id, expected_version: 1 },
            ],
          }),
        );
        expect(invalid.code).toBe('validation_failed');
        expect(invalid.details).toEqual([
          { index: 0, path: '/title', message: expect.any(String) },
          { index: 1, path: '/expected_version', message: expect.any(String) },
        ]);
        const repeated = toolErrorOf(
          await call('update_tasks', {
            updates: [
              { id: a.id, expected_version: 1, title: 'x' },
              { id: a.id, expected_version: 1, title: 'y' },
            ],
          }),
        );
        expect(repeated).toMatchObject({ code: 'validation_failed', details: [{ index: 1, path: '/id' }] });
        expect(toolErrorOf(await call('update_tasks', { updates: [] })).code).toBe('validation_failed');

        const done = okOf(
          await call('update_tasks', {
            updates: [
              { id: c.id, expected_version: 1, status: 'done' },
              { id: a.id, expected_version: 1, title: 'A', status: 'open' },
              { id: b.id, expected_version: 2, status: 'done' },
            ],
          }),
        );
        expect(done.tasks.map((x: any) => [x.id, x.status, x.version])).toEqual([
          [c.id, 'done', 2],
          [a.id, 'open', 2],
          [b.id, 'done', 3],
        ]);
        for (const task of done.tasks) expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task).toEqual(task);
        const history = (await agent.get(`/api/v1/trees/${tree.id}/history?limit=3`)).body.items;
        expect(history.map((h: any) => h.action).sort()).toEqual(['completed', 'completed', 'updated']);
        expect(new Set(history.map((h: any) => h.at)).size).toBe(1);
      });
    });
  }

  it("refuses past the plan's tasks per tree, writing nothing", async () => {
    const tree = await makeTree(agent);
    const { planLimits } = await import('../../src/domain/plans.js');
    await t.app.deps.db
      .updateTable('trees')
      .set({ task_count: planLimits.sprout.tasksPerTree - 2 })
      .where('id', '=', tree.id)
      .execute();
    const mcp = await connectMcp(t.url, token);
    try {
      const refused = toolErrorOf(
        await mcp.client.callTool({
          name: 'create_tasks',
          arguments: { tree_id: tree.id, tasks: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] },
        }),
      );
      expect(refused).toMatchObject({ code: 'plan_limit_reached', details: [{ index: 0, limit: 'tasks_per_tree' }] });
      expect(await tasksOf(tree.id)).toEqual([]);
      okOf(
        await mcp.client.callTool({
          name: 'create_tasks',
          arguments: { tree_id: tree.id, tasks: [{ title: 'a' }, { title: 'b' }] },
        }),
      );
    } finally {
      await mcp.close();
    }
  });

  it('keeps a scoped credential inside its trees', async () => {
    const inside = await makeTree(agent);
    const outside = await makeTree(agent);
    const outTask = await makeTask(agent, outside.id);
    const scoped = await makeToken(alice, { scopes: ['read', 'write'], tree_ids: [inside.id] });
    const mcp = await connectMcp(t.url, scoped.value);
    try {
      okOf(
        await mcp.client.callTool({
          name: 'create_tasks',
          arguments: { tree_id: inside.id, tasks: [{ title: 'in' }] },
        }),
      );
      expect(
        toolErrorOf(
          await mcp.client.callTool({
            name: 'create_tasks',
            arguments: { tree_id: outside.id, tasks: [{ title: 'x' }] },
          }),
        ),
      ).toMatchObject({ code: 'not_found', details: [{ index: 0 }] });
      expect(
        toolErrorOf(
          await mcp.client.callTool({
            name: 'update_tasks',
            arguments: { updates: [{ id: outTask.id, expected_version: 1, title: 'x' }] },
          }),
        ),
      ).toMatchObject({ code: 'not_found', details: [{ index: 0 }] });
      expect(await tasksOf(outside.id)).toEqual([outTask]);
    } finally {
      await mcp.close();
    }
  });
});
