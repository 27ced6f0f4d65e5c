import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { databases } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { startTestAppWithSpeech } from '../helpers/fake-speech.js';
import { connectSdk1, toolErrorOf } from '../helpers/mcp.js';
import { someone } from './someone.js';

type Refusal = [args: Record<string, unknown>, code: string];

/**
 * CONTRACT §17 "Tool errors", through the client most MCP hosts run (SDK 1.x): it reads
 * tools/list first, as every real client does, and then checks any structured content of a
 * result against the tool's outputSchema. Every refusal must reach it as a tool error with the
 * §1 code; only a tool it was not shown is the protocol error -32602.
 */
describe.each(databases)('MCP tool errors through the SDK 1.x client (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestAppWithSpeech>>;
  beforeAll(async () => {
    t = await startTestAppWithSpeech(kind);
  });
  afterAll(async () => t.stop());

  it('reports every refusal of every tool as a tool error carrying the CONTRACT error, after tools/list', async () => {
    const me = await someone(t, ['read', 'write', 'attachments']);
    const other = await someone(t, ['read', 'write', 'attachments']);
    const mine = (
      await upload(me.person.browser, `/api/v1/tasks/${me.task.id}/attachments`, [
        { data: Buffer.from('mine'), name: 'a.webm', type: 'audio/webm' },
      ])
    ).body.attachment;
    const elsewhere = await makeTask(me.person.browser, me.tree.id, { title: 'another task' });
    const foreign = (
      await upload(other.person.browser, `/api/v1/tasks/${other.task.id}/attachments`, [
        { data: Buffer.from('theirs'), name: 'b.webm', type: 'audio/webm' },
      ])
    ).body.attachment;

    const refusals: Record<string, Refusal[]> = {
      list_trees: [
        [{ limit: 0 }, 'validation_failed'],
        [{ cursor: 'forged' }, 'invalid_cursor'],
        [{ bogus: 1 }, 'validation_failed'],
      ],
      list_tasks: [
        [{ tree_id: other.tree.id }, 'not_found'],
        [{ tree_id: me.tree.id, cursor: 'forged' }, 'invalid_cursor'],
        [{ updated_since: '2026-01-01T00:00:00' }, 'validation_failed'],
      ],
      get_task: [
        [{ id: other.task.id }, 'not_found'],
        [{ id: 'tsk_unknown' }, 'not_found'],
        [{}, 'validation_failed'],
        [{ id: 't'.repeat(161) }, 'validation_failed'],
      ],
      search: [
        [{ q: 'task', tree_id: other.tree.id }, 'not_found'],
        [{}, 'validation_failed'],
        [{ q: 'x', limit: 'many' }, 'validation_failed'],
      ],
      create_task: [
        [{ tree_id: other.tree.id, title: 'x' }, 'not_found'],
        [{ tree_id: me.tree.id, title: '' }, 'validation_failed'],
        [{ tree_id: me.tree.id, title: 'x', bogus: 1 }, 'validation_failed'],
      ],
      complete_task: [
        [{ id: other.task.id }, 'not_found'],
        [{ id: 5 }, 'validation_failed'],
      ],
      get_attachment: [
        [{ id: foreign.id }, 'not_found'],
        [{ id: 'att_unknown' }, 'not_found'],
        [{}, 'validation_failed'],
      ],
      transcribe_audio: [
        [{ task_id: other.task.id, attachment_id: foreign.id }, 'not_found'],
        [{ task_id: elsewhere.id, attachment_id: mine.id }, 'conflict'],
        [{ task_id: me.task.id }, 'validation_failed'],
      ],
      get_tree: [
        [{ id: other.tree.id }, 'not_found'],
        [{}, 'validation_failed'],
      ],
      list_projects: [
        [{ tree_id: other.tree.id }, 'not_found'],
        [{ limit: 0 }, 'validation_failed'],
      ],
      create_project: [
        [{ tree_id: other.tree.id, name: 'x' }, 'not_found'],
        [{ tree_id: me.tree.id }, 'validation_failed'],
      ],
      update_project: [
        [{ id: 'prj_unknown', expected_version: 1, name: 'x' }, 'not_found'],
        [{ id: 'prj_unknown', name: 'x' }, 'validation_failed'],
      ],
      update_task: [
        [{ id: other.task.id, expected_version: 1, title: 'x' }, 'not_found'],
        [{ id: me.task.id, expected_version: 99, title: 'x' }, 'precondition_failed'],
        [{ id: me.task.id, title: 'x' }, 'validation_failed'],
      ],
      delete_task: [
        [{ id: other.task.id, expected_version: 1 }, 'not_found'],
        [{ id: me.task.id, expected_version: 99 }, 'precondition_failed'],
        [{ id: me.task.id }, 'validation_failed'],
      ],
      assign_task: [
        [{ id: other.task.id, expected_version: 1, user_ids: [] }, 'not_found'],
        [{ id: me.task.id, expected_version: 99, user_ids: [] }, 'precondition_failed'],
        [{ id: me.task.id, expected_version: 1 }, 'validation_failed'],
      ],
      add_comment: [
        [{ task_id: other.task.id, body: 'x' }, 'not_found'],
        [{ task_id: me.task.id, body: '' }, 'validation_failed'],
      ],
      list_comments: [
        [{ task_id: other.task.id }, 'not_found'],
        [{ task_id: me.task.id, cursor: 'forged' }, 'invalid_cursor'],
      ],
      get_history: [
        [{ tree_id: other.tree.id }, 'not_found'],
        [{ tree_id: me.tree.id, limit: 0 }, 'validation_failed'],
      ],
      create_tasks: [
        [{ tree_id: other.tree.id, tasks: [{ title: 'x' }] }, 'not_found'],
        [{ tree_id: me.tree.id, tasks: [] }, 'validation_failed'],
        [{ tree_id: me.tree.id, tasks: [{ title: 'ok' }, { title: ' ' }] }, 'validation_failed'],
      ],
      update_tasks: [
        [{ updates: [{ id: other.task.id, expected_version: 1 }] }, 'not_found'],
        [{ updates: [{ id: me.task.id, expected_version: 99 }] }, 'precondition_failed'],
        [{ updates: [{ id: me.task.id }] }, 'validation_failed'],
      ],
    };

    const sdk = await connectSdk1(t.url, me.token);
    try {
      const { tools } = await sdk.client.listTools();
      // Every tool shown has its refusals below: a tool added later without them fails here.
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(refusals).sort());
      // Plain calls are answered from the tool table; with `_meta` they go through the SDK's server.
      for (const meta of [undefined, { trace: 'sdk1' }]) {
        for (const [name, cases] of Object.entries(refusals)) {
          for (const [args, code] of cases) {
            const label = `${name} ${JSON.stringify(args)}${meta === undefined ? '' : ' with _meta'}`;
            const result = await sdk.client.callTool({
              name,
              arguments: args,
              ...(meta === undefined ? {} : { _meta: meta }),
            });
            const error = toolErrorOf(result);
            expect(error.code, label).toBe(code);
            if (code === 'validation_failed')
              expect(error.details, label).toEqual(
                expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]),
              );
          }
        }
      }
    } finally {
      await sdk.close();
    }

    expect((await other.person.browser.get(`/api/v1/tasks/${other.task.id}`)).body.task.status).toBe('todo');
    expect((await me.person.browser.get(`/api/v1/tasks?tree_id=${me.tree.id}`)).body.items).toHaveLength(2);
    expect((await other.person.browser.get(`/api/v1/tasks?tree_id=${other.tree.id}`)).body.items).toHaveLength(1);
    expect(await t.app.deps.db.selectFrom('speech_jobs').selectAll().execute()).toEqual([]);
  });

  it("accepts every write tool's result against its output schema", async () => {
    const me = await someone(t, ['read', 'write']);
    const sdk = await connectSdk1(t.url, me.token);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await sdk.client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(result.content)}`).toBeFalsy();
      return result.structuredContent as any;
    };
    try {
      await sdk.client.listTools();
      const { project } = await call('create_project', { tree_id: me.tree.id, name: 'Beds' });
      await call('update_project', { id: project.id, expected_version: 1, name: 'Raised beds' });
      await call('list_projects', { tree_id: me.tree.id });
      await call('get_tree', { id: me.tree.id });
      const { tasks } = await call('create_tasks', { tree_id: me.tree.id, tasks: [{ title: 'a' }, { title: 'b' }] });
      await call('update_tasks', { updates: [{ id: tasks[0].id, expected_version: 1, status: 'done' }] });
      await call('update_task', { id: tasks[1].id, expected_version: 1, title: 'B' });
      await call('assign_task', { id: tasks[1].id, expected_version: 2, user_ids: [me.person.user.id] });
      await call('add_comment', { task_id: tasks[1].id, body: 'on it' });
      await call('list_comments', { task_id: tasks[1].id });
      await call('get_history', { tree_id: me.tree.id });
      expect(await call('delete_task', { id: tasks[1].id, expected_version: 3 })).toMatchObject({ ok: true });
    } finally {
      await sdk.close();
    }
  });

  it('keeps results the client accepts, and -32602 only for a tool it was not shown', async () => {
    const seed = await makeUser(t.url, t.app);
    const made = await makeToken(seed);
    const sdk = await connectSdk1(t.url, made.value);
    try {
      const { tools } = await sdk.client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('create_task');
      const listed = await sdk.client.callTool({ name: 'list_trees', arguments: {} });
      expect(listed.isError).toBeFalsy();
      expect(listed.structuredContent).toMatchObject({ items: [], next_cursor: null });
      for (const name of ['create_task', 'no_such_tool']) {
        const refused = await sdk.client.callTool({ name, arguments: { tree_id: 'tre_x', title: 'x' } }).then(
          () => null,
          (err: unknown) => err,
        );
        expect(refused, name).toBeInstanceOf(McpError);
        expect((refused as McpError).code, name).toBe(-32602);
        expect((refused as McpError).message, name).toContain(`Tool ${name} not found`);
      }
    } finally {
      await sdk.close();
    }
  });
});
