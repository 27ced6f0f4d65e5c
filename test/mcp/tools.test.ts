import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { connectMcp, toolErrorOf, type McpConnection } from '../helpers/mcp.js';
import { upload } from '../helpers/files.js';
import { startTestAppWithSpeech } from '../helpers/fake-speech.js';
import { ALL_TOOLS, READ_TOOLS } from './tool-names.js';

function textOf(result: any): string {
  return result.content?.[0]?.text ?? '';
}

describe.each(databases)('MCP tools (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Rest;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice, { scopes: ['read', 'write'] });
    agent = made.agent;
    token = made.value;
  });
  afterAll(async () => t.stop());

  for (const modern of [false, true]) {
    const era = modern ? '2026-07-28 (sessionless)' : '2025-11-25 (session)';

    describe(era, () => {
      let mcp: McpConnection;
      beforeAll(async () => {
        mcp = await connectMcp(t.url, token, { modern });
      });
      afterAll(async () => mcp.close());

      it('lists every tool with schemas and annotations', async () => {
        const { tools } = await mcp.client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
        for (const tool of tools) {
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema?.type).toBe('object');
          expect(tool.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(tool.name));
        }
        const listTasks = tools.find((tool) => tool.name === 'list_tasks')!;
        expect(Object.keys(listTasks.inputSchema.properties ?? {}).sort()).toEqual([
          'assignee_id',
          'cursor',
          'deadline_after',
          'deadline_before',
          'limit',
          'project_id',
          'status',
          'tree_id',
          'updated_since',
        ]);
      });

      it('creates, reads, lists, searches and completes tasks like REST', async () => {
        const tree = await makeTree(agent, { name: `MCP ${era}` });
        const project = await makeProject(agent, tree.id);
        const created = await mcp.client.callTool({
          name: 'create_task',
          arguments: {
            tree_id: tree.id,
            project_id: project.id,
            title: 'Graft the apple',
            notes: 'scion from the old tree',
          },
        });
        expect(created.isError).toBeFalsy();
        const task = (created.structuredContent as any).task;
        expect(task).toMatchObject({
          tree_id: tree.id,
          project_id: project.id,
          title: 'Graft the apple',
          status: 'todo',
        });
        expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);

        const viaRest = await agent.get(`/api/v1/tasks/${task.id}`);
        expect(viaRest.body.task).toEqual(task);
        const history = await alice.browser.get(`/api/v1/trees/${tree.id}/export`);
        expect(history.body.history.some((h: any) => h.entity_id === task.id && h.via === 'mcp')).toBe(true);

        const got = await mcp.client.callTool({ name: 'get_task', arguments: { id: task.id } });
        expect((got.structuredContent as any).task).toEqual(task);

        for (let i = 0; i < 2; i++) await makeTask(agent, tree.id, { title: `Mulch ${i}` });
        const first = await mcp.client.callTool({ name: 'list_tasks', arguments: { tree_id: tree.id, limit: 2 } });
        const page = first.structuredContent as any;
        expect(page.items.map((x: any) => x.title)).toEqual(['Graft the apple', 'Mulch 0']);
        const second = await mcp.client.callTool({
          name: 'list_tasks',
          arguments: { tree_id: tree.id, limit: 2, cursor: page.next_cursor },
        });
        expect(second.structuredContent as any).toMatchObject({ items: [{ title: 'Mulch 1' }], next_cursor: null });

        const trees = await mcp.client.callTool({ name: 'list_trees', arguments: {} });
        expect((trees.structuredContent as any).items.map((x: any) => x.id)).toContain(tree.id);

        const found = await mcp.client.callTool({
          name: 'search',
          arguments: { q: 'OLD "the apple"', tree_id: tree.id },
        });
        expect((found.structuredContent as any).items.map((x: any) => x.id)).toEqual([task.id]);

        const done = await mcp.client.callTool({ name: 'complete_task', arguments: { id: task.id } });
        expect((done.structuredContent as any).task).toMatchObject({
          id: task.id,
          status: 'done',
          completed_at: expect.any(String),
        });
      });

      it('turns domain errors into tool errors with the CONTRACT code', async () => {
        const missing = await mcp.client.callTool({ name: 'get_task', arguments: { id: 'tsk_nope' } });
        expect(toolErrorOf(missing).code).toBe('not_found');
        const tree = await makeTree(agent);
        const badCursor = await mcp.client.callTool({
          name: 'list_tasks',
          arguments: { tree_id: tree.id, cursor: 'forged' },
        });
        expect(toolErrorOf(badCursor).code).toBe('invalid_cursor');
        const badDate = await mcp.client.callTool({
          name: 'list_tasks',
          arguments: { updated_since: '2026-01-01T00:00:00' },
        });
        expect(toolErrorOf(badDate).code).toBe('validation_failed');
      });

      it('refuses wrong arguments without changing anything', async () => {
        const tree = await makeTree(agent);
        for (const args of [
          { tree_id: tree.id },
          { tree_id: tree.id, title: '' },
          { tree_id: tree.id, title: 'x', extra: 1, status: 'doing' },
          { tree_id: 5, title: 'x' },
        ]) {
          const answer = await mcp.client
            .callTool({ name: 'create_task', arguments: args })
            .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
          expect(answer.isError, JSON.stringify(args)).toBe(true);
        }
        expect((await agent.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items).toEqual([]);
        await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
          /Tool no_such_tool not found/,
        );
      });

      it('refuses unknown arguments on every tool, as REST refuses unknown body properties', async () => {
        const { tools } = await mcp.client.listTools();
        for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
        const tree = await makeTree(agent);
        const bogus = await mcp.client.callTool({
          name: 'create_task',
          arguments: { tree_id: tree.id, title: 'x', bogus: 1 },
        });
        expect(toolErrorOf(bogus)).toEqual({
          code: 'validation_failed',
          message: expect.any(String),
          details: [{ path: '/bogus', message: 'is not a known property' }],
        });
        expect((await agent.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items).toEqual([]);
        const rest = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'x', bogus: 1 });
        expect(rest.body.error.code).toBe('validation_failed');
        const task = await makeTask(agent, tree.id);
        for (const [name, args] of [
          ['get_task', { id: task.id, extra: true }],
          ['list_trees', { page: 2 }],
          ['search', { q: 'x', tree: tree.id }],
          ['complete_task', { id: task.id, force: true }],
        ] as const) {
          const answer = await mcp.client.callTool({ name, arguments: args });
          expect(toolErrorOf(answer).code, name).toBe('validation_failed');
        }
        expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task.status).toBe('todo');
      });

      it('carries the CONTRACT error as JSON text, and no structured content, on every tool error', async () => {
        const missing = await mcp.client.callTool({ name: 'get_task', arguments: { id: 'tsk_nope' } });
        expect(toolErrorOf(missing)).toEqual({ code: 'not_found', message: expect.any(String) });
        const tooLong = await mcp.client.callTool({
          name: 'create_task',
          arguments: { tree_id: 'tre_x', title: 'x'.repeat(501) },
        });
        expect(toolErrorOf(tooLong)).toMatchObject({ code: 'validation_failed', details: [{ path: '/title' }] });
      });

      it('derives tool schemas from the REST schemas', async () => {
        const { TaskInput, Task } = await import('../../src/http/schemas/data.js');
        const plain = (schema: unknown) =>
          JSON.parse(JSON.stringify(schema), (key, value) => (key === '$id' ? undefined : value));
        const { tools } = await mcp.client.listTools();
        const createTool = tools.find((tool) => tool.name === 'create_task')!;
        expect(createTool.inputSchema.properties).toEqual(plain(TaskInput).properties);
        expect(createTool.inputSchema.required).toEqual(plain(TaskInput).required);
        expect((createTool.outputSchema as any).properties.task).toEqual(plain(Task));
      });

      it('advertises no list-change notices it never sends', async () => {
        const capabilities = mcp.client.getServerCapabilities();
        expect(capabilities?.tools).toBeDefined();
        expect(capabilities?.resources).toBeDefined();
        expect(capabilities?.tools?.listChanged).not.toBe(true);
        expect(capabilities?.resources?.listChanged).not.toBe(true);
      });

      it('serves the tree snapshot resource and lists the trees', async () => {
        const tree = await makeTree(agent, { name: 'Orchard' });
        const task = await makeTask(agent, tree.id);
        const read = await mcp.client.readResource({ uri: `service://tree/${tree.id}` });
        const content = read.contents[0] as { mimeType?: string; text?: string };
        expect(content.mimeType).toBe('application/json');
        const snapshot = JSON.parse(content.text!);
        expect(snapshot.tree.id).toBe(tree.id);
        expect(snapshot.tasks.map((x: any) => x.id)).toEqual([task.id]);

        const { resources } = await mcp.client.listResources();
        expect(resources).toContainEqual(
          expect.objectContaining({ uri: `service://tree/${tree.id}`, name: 'Orchard', mimeType: 'application/json' }),
        );
        const { resourceTemplates } = await mcp.client.listResourceTemplates();
        expect(resourceTemplates.map((x) => x.uriTemplate)).toEqual(['service://tree/{id}']);
      });
    });
  }

  it('keeps other tenants out of tools and resources', async () => {
    const bob = await makeUser(t.url, t.app, { plan: 'sprout' });
    const bobToken = await makeToken(bob, { scopes: ['read', 'write'] });
    const bobTree = await makeTree(bobToken.agent, { name: 'Bob private' });
    const bobTask = await makeTask(bobToken.agent, bobTree.id, { title: 'secret rhubarb' });
    const mcp = await connectMcp(t.url, token);
    try {
      expect(toolErrorOf(await mcp.client.callTool({ name: 'get_task', arguments: { id: bobTask.id } })).code).toBe(
        'not_found',
      );
      expect(
        toolErrorOf(await mcp.client.callTool({ name: 'complete_task', arguments: { id: bobTask.id } })).code,
      ).toBe('not_found');
      expect(
        toolErrorOf(await mcp.client.callTool({ name: 'create_task', arguments: { tree_id: bobTree.id, title: 'x' } }))
          .code,
      ).toBe('not_found');
      expect(
        toolErrorOf(await mcp.client.callTool({ name: 'list_tasks', arguments: { tree_id: bobTree.id } })).code,
      ).toBe('not_found');
      const search = await mcp.client.callTool({ name: 'search', arguments: { q: 'rhubarb' } });
      expect((search.structuredContent as any).items).toEqual([]);
      await expect(mcp.client.readResource({ uri: `service://tree/${bobTree.id}` })).rejects.toThrow(
        /not_found|not found/i,
      );
      await expect(mcp.client.readResource({ uri: 'service://tree/trе_unknown' })).rejects.toThrow();
      const { resources } = await mcp.client.listResources();
      expect(resources.map((r) => r.uri)).not.toContain(`service://tree/${bobTree.id}`);
    } finally {
      await mcp.close();
    }
    expect((await bobToken.agent.get(`/api/v1/tasks/${bobTask.id}`)).body.task.status).toBe('todo');
  });

  it('shows only what the credential can use, evaluated on every request', async () => {
    const carol = await makeUser(t.url, t.app, { plan: 'sprout' });
    const readOnly = await makeToken(carol, { scopes: ['read'] });
    const writer = await makeToken(carol, { scopes: ['read', 'write'] });
    const tree = await makeTree(writer.agent);
    const task = await makeTask(writer.agent, tree.id);

    const reader = await connectMcp(t.url, readOnly.value);
    const full = await connectMcp(t.url, writer.value);
    try {
      expect((await reader.client.listTools()).tools.map((x) => x.name).sort()).toEqual(READ_TOOLS);
      const hidden = await reader.client
        .callTool({ name: 'complete_task', arguments: { id: task.id } })
        .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      expect(hidden.isError).toBe(true);
      expect(textOf(hidden)).toMatch(/not found|unknown tool/i);

      expect((await full.client.listTools()).tools.map((x) => x.name).sort()).toEqual(ALL_TOOLS);
      const { setUserPlan } = await import('../../src/domain/accounts/accounts.js');
      await setUserPlan(t.app.deps, carol.email, 'seed', null);
      expect((await full.client.listTools()).tools.map((x) => x.name).sort()).toEqual(READ_TOOLS);
      const refused = await full.client
        .callTool({ name: 'create_task', arguments: { tree_id: tree.id, title: 'x' } })
        .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      expect(refused.isError).toBe(true);
      expect((await writer.agent.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items).toHaveLength(1);
      await setUserPlan(t.app.deps, carol.email, 'sprout', null);
      expect((await full.client.listTools()).tools.map((x) => x.name).sort()).toEqual(ALL_TOOLS);
    } finally {
      await reader.close();
      await full.close();
    }
  });
});

describe.each(databases)('MCP attachment and speech tools (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestAppWithSpeech>>;
  beforeAll(async () => {
    t = await startTestAppWithSpeech(kind);
  });
  afterAll(async () => t.stop());

  it('lists them by scope and plan, links content and queues transcriptions', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const full = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const tree = await makeTree(full.agent);
    const task = await makeTask(full.agent, tree.id);
    const { body } = await upload(full.agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data: Buffer.from('audio bytes'), name: 'memo.webm', type: 'audio/webm' },
    ]);
    const mcp = await connectMcp(t.url, full.value);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual([...ALL_TOOLS, 'get_attachment', 'transcribe_audio'].sort());
      expect(tools.find((x) => x.name === 'get_attachment')!.annotations?.readOnlyHint).toBe(true);

      const got = await mcp.client.callTool({ name: 'get_attachment', arguments: { id: body.attachment.id } });
      const link = got.structuredContent as any;
      expect(link.attachment).toEqual(body.attachment);
      const url = new URL(link.content_url);
      const content = await fetch(`${t.url}${url.pathname}${url.search}`);
      expect(await content.text()).toBe('audio bytes');

      const queued = await mcp.client.callTool({
        name: 'transcribe_audio',
        arguments: { task_id: task.id, attachment_id: body.attachment.id },
      });
      const job = (queued.structuredContent as any).job;
      expect(job).toMatchObject({ task_id: task.id, attachment_id: body.attachment.id, status: 'queued' });
      for (
        let i = 0;
        i < 200 && (await full.agent.get(`/api/v1/speech/jobs/${job.id}`)).body.job.status !== 'succeeded';
        i++
      )
        await new Promise((r) => setTimeout(r, 25));
      expect((await full.agent.get(`/api/v1/speech/jobs/${job.id}`)).body.job.transcript).toBe('heard 11 bytes');

      const missing = await mcp.client.callTool({ name: 'get_attachment', arguments: { id: 'att_missing' } });
      expect(toolErrorOf(missing).code).toBe('not_found');
    } finally {
      await mcp.close();
    }

    const seed = await makeUser(t.url, t.app);
    const seedToken = await makeToken(seed);
    const seedMcp = await connectMcp(t.url, seedToken.value);
    try {
      expect((await seedMcp.client.listTools()).tools.map((x) => x.name).sort()).toEqual(
        [...READ_TOOLS, 'get_attachment'].sort(),
      );
      const foreign = await seedMcp.client.callTool({ name: 'get_attachment', arguments: { id: body.attachment.id } });
      expect(toolErrorOf(foreign).code).toBe('not_found');
    } finally {
      await seedMcp.close();
    }
  });

  for (const modern of [false, true]) {
    it(`hides get_attachment from a credential without read + attachments and refuses the call (${modern ? '2026-07-28' : '2025-11-25'})`, async () => {
      const person = await makeUser(t.url, t.app, { plan: 'sprout' });
      const full = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
      const tree = await makeTree(full.agent);
      const task = await makeTask(full.agent, tree.id);
      const { body } = await upload(full.agent, `/api/v1/tasks/${task.id}/attachments`, [
        { data: Buffer.from('private') },
      ]);
      for (const scopes of [['read'], ['attachments'], ['read', 'write']]) {
        const made = await makeToken(person, { scopes });
        const mcp = await connectMcp(t.url, made.value, { modern });
        try {
          expect(
            (await mcp.client.listTools()).tools.map((x) => x.name),
            scopes.join(),
          ).not.toContain('get_attachment');
          const refused = await mcp.client
            .callTool({ name: 'get_attachment', arguments: { id: body.attachment.id } })
            .catch((err: Error) => ({
              isError: true,
              content: [{ type: 'text', text: err.message }],
              structuredContent: undefined,
            }));
          expect(refused.isError).toBe(true);
          expect(textOf(refused)).toMatch(/Tool get_attachment not found/);
          expect(JSON.stringify(refused)).not.toContain('signature');
        } finally {
          await mcp.close();
        }
      }
      const reader = await makeToken(person, { scopes: ['read', 'attachments'] });
      const mcp = await connectMcp(t.url, reader.value, { modern });
      try {
        const got = await mcp.client.callTool({ name: 'get_attachment', arguments: { id: body.attachment.id } });
        const url = new URL((got.structuredContent as any).content_url);
        expect(await (await fetch(`${t.url}${url.pathname}${url.search}`)).text()).toBe('private');
      } finally {
        await mcp.close();
      }
    });
  }

  it('reports speech_unavailable as a tool error when no provider is configured', async () => {
    const bare = await startTestApp(kind);
    try {
      const person = await makeUser(bare.url, bare.app, { plan: 'grove' });
      const made = await makeToken(person);
      const tree = await makeTree(made.agent);
      const task = await makeTask(made.agent, tree.id);
      const { body } = await upload(made.agent, `/api/v1/tasks/${task.id}/attachments`, [
        { data: Buffer.from('x'), name: 'a.mp3' },
      ]);
      const mcp = await connectMcp(bare.url, made.value);
      try {
        const answer = await mcp.client.callTool({
          name: 'transcribe_audio',
          arguments: { task_id: task.id, attachment_id: body.attachment.id },
        });
        expect(toolErrorOf(answer).code).toBe('speech_unavailable');
      } finally {
        await mcp.close();
      }
      expect(await bare.app.deps.db.selectFrom('speech_jobs').selectAll().execute()).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});
