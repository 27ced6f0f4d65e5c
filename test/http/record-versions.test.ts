import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';
import { connectMcp, initializeMessage, rawMcp } from '../helpers/mcp.js';
import { upload } from '../helpers/files.js';
import { cliEnvOf, tasktree } from '../helpers/cli.js';

/**
 * CONTRACT §16.2: trees, projects and tasks carry `version`, 1 at creation and one higher after
 * each change of the record's own fields, through every door; a write that changes nothing
 * changes nothing; and a write of one record answers with the ETag its GET gives right after.
 */
describe.each(databases)('record versions (%s)', { timeout: 120_000 }, (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let browser: Client;
  let agent: Client;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    browser = owner.browser;
    const made = await makeToken(owner);
    agent = made.agent;
    token = made.value;
  });
  afterAll(async () => t.stop());

  const versionOf = async (path: string, key: string): Promise<number> => {
    const answer = await browser.get(path);
    expect(answer.status, answer.text).toBe(200);
    return answer.body[key].version;
  };
  const taskVersion = (id: string) => versionOf(`/api/v1/tasks/${id}`, 'task');
  const projectVersion = (id: string) => versionOf(`/api/v1/projects/${id}`, 'project');
  const treeVersion = (id: string) => versionOf(`/api/v1/trees/${id}`, 'tree');
  const historyOf = async (treeId: string): Promise<unknown[]> =>
    (await browser.get(`/api/v1/trees/${treeId}/history?limit=200`)).body.items;

  it('starts every record at 1 and raises it by exactly one per change, however many fields it holds', async () => {
    const tree = await makeTree(agent);
    expect(tree.version).toBe(1);
    const renamed = await agent.patch(`/api/v1/trees/${tree.id}`, { name: 'Orchard', style: 'lsystem' });
    expect(renamed.body.tree.version).toBe(2);
    expect(await treeVersion(tree.id)).toBe(2);

    const project = await makeProject(agent, tree.id);
    expect(project.version).toBe(1);
    const changed = await agent.patch(`/api/v1/projects/${project.id}`, {
      name: 'Beds',
      description: 'south side',
      color: '#112233',
      position: 7,
    });
    expect(changed.body.project.version).toBe(2);

    const task = await makeTask(agent, tree.id);
    expect(task.version).toBe(1);
    const edits: [string, Record<string, unknown>][] = [
      ['many fields', { title: 'Feed', text: 'x', notes: 'y', color: '#445566', deadline: '2026-12-31' }],
      ['a status', { status: 'done' }],
      ['a project', { project_id: project.id }],
      ['back to loose', { project_id: null, status: 'open' }],
    ];
    let expected = 1;
    for (const [what, patch] of edits) {
      const answer = await agent.patch(`/api/v1/tasks/${task.id}`, patch);
      expect(answer.status, what).toBe(200);
      expected += 1;
      expect(answer.body.task.version, what).toBe(expected);
    }
    const assigned = await agent.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] });
    expect(assigned.body.task.version).toBe(expected + 1);
    const unassigned = await browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [] });
    expect(unassigned.body.task.version).toBe(expected + 2);
    expect(await taskVersion(task.id)).toBe(expected + 2);
    // A parent's version is its own: nothing above changed the tree's or the project's fields.
    expect(await treeVersion(tree.id)).toBe(2);
    expect(await projectVersion(project.id)).toBe(2);
  });

  it("leaves a parent's version alone when its children, comments, messages and attachments change", async () => {
    const tree = await makeTree(browser);
    const project = await makeProject(browser, tree.id);
    const task = await makeTask(browser, tree.id, { project_id: project.id });
    const child = await makeProject(browser, tree.id, { parent_id: project.id });
    const other = await makeTask(browser, tree.id, { project_id: child.id });
    await browser.patch(`/api/v1/tasks/${other.id}`, { title: 'moved along', project_id: project.id });
    await browser.patch(`/api/v1/projects/${child.id}`, { parent_id: null });
    await browser.patch(`/api/v1/projects/${child.id}`, { parent_id: project.id });
    await browser.delete(`/api/v1/tasks/${other.id}`);
    await browser.delete(`/api/v1/projects/${child.id}`);
    expect((await browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'looks good' })).status).toBe(201);
    expect((await browser.post(`/api/v1/trees/${tree.id}/messages`, { body: 'hello' })).status).toBe(201);
    const file = await upload(browser, `/api/v1/tasks/${task.id}/attachments`, [
      { name: 'note.txt', type: 'text/plain', data: Buffer.from('a note') },
    ]);
    expect(file.status).toBe(201);
    expect(await treeVersion(tree.id)).toBe(1);
    expect(await projectVersion(project.id)).toBe(1);
    expect(await taskVersion(task.id)).toBe(1);
  });

  it('raises a project moved to another tree, and each project and task it carries, by exactly one', async () => {
    const [from, to] = [await makeTree(browser), await makeTree(browser)];
    const project = await makeProject(browser, from.id);
    const child = await makeProject(browser, from.id, { parent_id: project.id });
    const inProject = await makeTask(browser, from.id, { project_id: project.id });
    const inChild = await makeTask(browser, from.id, { project_id: child.id });
    await browser.patch(`/api/v1/tasks/${inChild.id}`, { title: 'already changed once' });
    const moved = await browser.patch(`/api/v1/projects/${project.id}`, { tree_id: to.id, name: 'renamed too' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.project).toMatchObject({ tree_id: to.id, version: 2 });
    expect(await projectVersion(child.id)).toBe(2);
    expect(await taskVersion(inProject.id)).toBe(2);
    expect(await taskVersion(inChild.id)).toBe(3);
    expect(await treeVersion(from.id)).toBe(1);
    expect(await treeVersion(to.id)).toBe(1);

    // A task moved alone: one change, one step, though the move writes its row twice.
    const loose = await makeTask(browser, from.id);
    const carried = await browser.patch(`/api/v1/tasks/${loose.id}`, { tree_id: to.id, title: 'and renamed' });
    expect(carried.body.task).toMatchObject({ tree_id: to.id, version: 2 });
    // Within the tree: the project changes only where the project sits, not its children.
    const parent = await makeProject(browser, to.id);
    expect((await browser.patch(`/api/v1/projects/${project.id}`, { parent_id: parent.id })).body.project.version).toBe(
      3,
    );
    expect(await projectVersion(child.id)).toBe(2);
    expect(await taskVersion(inProject.id)).toBe(2);
  });

  it('answers a write that changes nothing with the record, no history entry and the same version', async () => {
    const tree = await makeTree(browser, { name: 'Same' });
    const project = await makeProject(browser, tree.id, { name: 'Same' });
    const task = await makeTask(browser, tree.id, {
      title: 'Same',
      project_id: project.id,
      deadline: '2026-12-31T10:00:00Z',
    });
    await browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] });
    const entries = (await historyOf(tree.id)).length;
    const noOps: [string, () => Promise<{ status: number; body: any; headers: Headers }>, string][] = [
      ['empty task patch', () => browser.patch(`/api/v1/tasks/${task.id}`, {}), 'task'],
      ['task patch without a body', () => browser.request('PATCH', `/api/v1/tasks/${task.id}`), 'task'],
      [
        'task values as they are',
        () =>
          browser.patch(`/api/v1/tasks/${task.id}`, {
            title: 'Same',
            status: 'todo',
            tree_id: tree.id,
            project_id: project.id,
            deadline: '2026-12-31T10:00:00Z',
          }),
        'task',
      ],
      [
        'the same assignees',
        () => browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] }),
        'task',
      ],
      ['empty project patch', () => browser.patch(`/api/v1/projects/${project.id}`, {}), 'project'],
      [
        'project values as they are',
        () => browser.patch(`/api/v1/projects/${project.id}`, { name: 'Same', tree_id: tree.id, parent_id: null }),
        'project',
      ],
      ['empty tree patch', () => browser.patch(`/api/v1/trees/${tree.id}`, {}), 'tree'],
      [
        'tree values as they are',
        () => browser.patch(`/api/v1/trees/${tree.id}`, { name: 'Same', style: 'tidy-fan' }),
        'tree',
      ],
    ];
    for (const [what, send, key] of noOps) {
      const answer = await send();
      expect(answer.status, what).toBe(200);
      expect(answer.body[key].version, what).toBe(key === 'task' ? 2 : 1);
      expect(answer.headers.get('change-id'), what).toBeNull();
      const path = key === 'tree' ? `/api/v1/trees/${tree.id}` : `/api/v1/${key}s/${answer.body[key].id}`;
      expect(answer.headers.get('etag'), what).toBe((await browser.get(path)).headers.get('etag'));
    }
    expect(await historyOf(tree.id)).toHaveLength(entries);
  });

  it('raises versions through MCP tools, JSON-RPC batches, CSV import and shows them in the CLI export', async () => {
    const tree = await makeTree(browser);
    const task = await makeTask(browser, tree.id);
    const mcp = await connectMcp(t.url, token);
    try {
      const created: any = await mcp.client.callTool({
        name: 'create_task',
        arguments: { tree_id: tree.id, title: 'x' },
      });
      expect(created.structuredContent.task.version).toBe(1);
      const done: any = await mcp.client.callTool({ name: 'complete_task', arguments: { id: task.id } });
      expect(done.structuredContent.task).toMatchObject({ status: 'done', version: 2 });
      // Done already: nothing changes.
      const again: any = await mcp.client.callTool({ name: 'complete_task', arguments: { id: task.id } });
      expect(again.structuredContent.task.version).toBe(2);
      const got: any = await mcp.client.callTool({
        name: 'get_task',
        arguments: { id: created.structuredContent.task.id },
      });
      expect(got.structuredContent.task.version).toBe(1);
    } finally {
      await mcp.close();
    }

    // A 2025-03-26 session may batch: each call is a change of its own.
    const auth = { authorization: `Bearer ${token}` };
    const opened = await rawMcp(
      t.url,
      { ...initializeMessage, params: { ...initializeMessage.params, protocolVersion: '2025-03-26' } },
      auth,
    );
    const session = {
      ...auth,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-03-26',
    };
    const [a, b] = [await makeTask(browser, tree.id), await makeTask(browser, tree.id)];
    const call = (id: number, taskId: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'complete_task', arguments: { id: taskId } },
    });
    const batch = await rawMcp(t.url, [call(1, a.id), call(2, a.id), call(3, b.id)], session);
    expect(batch.status).toBe(200);
    expect(batch.json.map((m: any) => m.result.structuredContent.task.version)).toEqual([2, 2, 2]);
    expect(await taskVersion(a.id)).toBe(2);

    const csv = 'title,project\r\nOne,Orchard/Apples\r\nTwo,\r\n';
    const imported = await browser.request('POST', `/api/v1/trees/${tree.id}/import`, {
      raw: csv,
      contentType: 'text/csv',
    });
    expect(imported.status, imported.text).toBe(201);
    const snapshot = (await browser.get(`/api/v1/trees/${tree.id}`)).body;
    const importedTasks = snapshot.tasks.filter((x: any) => ['One', 'Two'].includes(x.title));
    expect(importedTasks.map((x: any) => x.version)).toEqual([1, 1]);
    expect(snapshot.projects.map((p: any) => p.version)).toEqual([1, 1]);
    expect(snapshot.tree.version).toBe(1);

    const exported = await tasktree(cliEnvOf(t.env), 'export', '--tree', tree.id);
    expect(exported.code, exported.stderr).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.tree.version).toBe(1);
    expect(document.tasks.find((x: any) => x.id === task.id).version).toBe(2);
    expect(document.projects.every((p: any) => p.version === 1)).toBe(true);
  });

  it("answers every write of one record with the ETag the record's GET gives the same user right after", async () => {
    const etagOf = async (client: Client, path: string) => {
      const answer = await client.get(path);
      expect(answer.status).toBe(200);
      return answer.headers.get('etag');
    };
    const member = await makeUser(t.url, t.app, { plan: 'sprout' });
    for (const [who, client] of [
      ['token', agent],
      ['browser', browser],
    ] as const) {
      const treeAnswer = await client.post('/api/v1/trees', { name: who });
      expect(treeAnswer.status).toBe(201);
      const tree = treeAnswer.body.tree;
      const treePath = `/api/v1/trees/${tree.id}`;
      expect(treeAnswer.headers.get('etag')).toMatch(/^"s[A-Za-z0-9_-]{32}"$/);
      expect(treeAnswer.headers.get('etag')).toBe(await etagOf(client, treePath));

      const projectAnswer = await client.post('/api/v1/projects', { tree_id: tree.id, name: 'Beds' });
      const project = projectAnswer.body.project;
      const projectPath = `/api/v1/projects/${project.id}`;
      expect(projectAnswer.headers.get('etag')).toMatch(/^"v[A-Za-z0-9_-]{32}"$/);
      expect(projectAnswer.headers.get('etag')).toBe(await etagOf(client, projectPath));

      const taskAnswer = await client.post('/api/v1/tasks', {
        tree_id: tree.id,
        title: 'Feed',
        project_id: project.id,
      });
      const task = taskAnswer.body.task;
      const taskPath = `/api/v1/tasks/${task.id}`;
      expect(taskAnswer.headers.get('etag')).toBe(await etagOf(client, taskPath));

      const writes: [string, () => Promise<{ headers: Headers; status: number }>, string][] = [
        ['tree patch', () => client.patch(treePath, { name: 'Renamed' }), treePath],
        ['project patch', () => client.patch(projectPath, { name: 'Rows' }), projectPath],
        ['task patch', () => client.patch(taskPath, { status: 'done' }), taskPath],
        ['assignees', () => client.put(`${taskPath}/assignees`, { user_ids: [owner.user.id] }), taskPath],
      ];
      for (const [what, send, path] of writes) {
        const answer = await send();
        expect(answer.status, what).toBe(200);
        const etag = answer.headers.get('etag');
        expect(etag, what).not.toBeNull();
        expect(etag, what).toBe(await etagOf(client, path));
        // The user's tag, whichever of their credentials reads it.
        expect(etag, what).toBe(await etagOf(client === agent ? browser : agent, path));
      }
      // The tree's tag is its snapshot's: a change inside the tree changes it, the tree's version stays.
      const before = await etagOf(client, treePath);
      await client.patch(taskPath, { title: 'Feed well' });
      expect(await etagOf(client, treePath)).not.toBe(before);
      expect(await treeVersion(tree.id)).toBe(2);
    }

    // Another user reads another tag of the same record.
    const tree = await makeTree(browser);
    const invited = await browser.post(`/api/v1/trees/${tree.id}/members`, { email: member.email, role: 'editor' });
    await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const task = await makeTask(browser, tree.id);
    const written = await member.browser.patch(`/api/v1/tasks/${task.id}`, { title: 'by the member' });
    expect(written.headers.get('etag')).toBe(await etagOf(member.browser, `/api/v1/tasks/${task.id}`));
    expect(written.headers.get('etag')).not.toBe(await etagOf(browser, `/api/v1/tasks/${task.id}`));
  });
});
