import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('tasks (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let userId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    userId = alice.user.id;
    agent = (await makeToken(alice)).agent;
  });
  afterAll(async () => t.stop());

  it('creates a task with the CONTRACT defaults', async () => {
    const tree = await makeTree(agent);
    const answer = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Prune' });
    expect(answer.status).toBe(201);
    expect(answer.body.task).toEqual({
      id: expect.stringMatching(/^tsk_/),
      tree_id: tree.id,
      project_id: null,
      title: 'Prune',
      text: '',
      notes: '',
      status: 'todo',
      deadline: null,
      color: '#6b8e23',
      position: 0,
      completed_at: null,
      created_by: userId,
      assignee_ids: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
    });
    const second = await makeTask(agent, tree.id);
    expect(second.position).toBe(1);
    const project = await makeProject(agent, tree.id);
    expect((await makeTask(agent, tree.id, { project_id: project.id })).position).toBe(0);
  });

  it('accepts every field at its bounds and refuses one past them', async () => {
    const tree = await makeTree(agent);
    const full = {
      tree_id: tree.id,
      title: 't'.repeat(500),
      text: 'x'.repeat(10_000),
      notes: 'n'.repeat(50_000),
      status: 'deferred',
      color: '#ABCdef',
      position: 0,
    };
    expect((await agent.post('/api/v1/tasks', full)).status).toBe(201);
    const bad: Record<string, unknown>[] = [
      { title: '' },
      { title: 't'.repeat(501) },
      { text: 'x'.repeat(10_001) },
      { notes: 'n'.repeat(50_001) },
      { status: 'doing' },
      { color: 'red' },
      { color: '#12345' },
      { position: -1 },
      { position: 1.5 },
      { position: '1' },
      { deadline: '2026-13-01' },
      { deadline: '2026-02-30' },
      { deadline: '2026-12-31T10:00:00' },
      { deadline: '2026-12-31T10:00:00.1234567Z' },
      { deadline: 'tomorrow' },
      { assignee: 'me' },
      { tree_id: 'x'.repeat(161) },
    ];
    for (const patch of bad) {
      const answer = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'ok', ...patch });
      expect(answer.status, JSON.stringify(patch).slice(0, 80)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.error.details[0].path).toBeTruthy();
    }
    const listed = await agent.get(`/api/v1/tasks?tree_id=${tree.id}`);
    expect(listed.body.items).toHaveLength(1);
  });

  it('keeps deadlines as CONTRACT §6 says', async () => {
    const tree = await makeTree(agent);
    const cases: [string, string][] = [
      ['2026-12-31', '2026-12-31'],
      ['2026-12-31T10:00:00Z', '2026-12-31T10:00:00Z'],
      ['2026-12-31T10:00:00.5Z', '2026-12-31T10:00:00.5Z'],
      ['2026-12-31T12:00:00.123456+02:00', '2026-12-31T10:00:00.123456Z'],
      ['2027-01-01T01:30:00.12-03:00', '2027-01-01T04:30:00.12Z'],
    ];
    for (const [given, stored] of cases) {
      const task = await makeTask(agent, tree.id, { deadline: given });
      expect(task.deadline).toBe(stored);
      expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task.deadline).toBe(stored);
    }
    const task = await makeTask(agent, tree.id, { deadline: '2026-12-31' });
    expect((await agent.patch(`/api/v1/tasks/${task.id}`, { deadline: null })).body.task.deadline).toBeNull();
  });

  it('sets completed_at when done and clears it otherwise', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const done = (await agent.patch(`/api/v1/tasks/${task.id}`, { status: 'done' })).body.task;
    expect(done.completed_at).toEqual(expect.any(String));
    const again = (await agent.patch(`/api/v1/tasks/${task.id}`, { status: 'done', title: 'renamed' })).body.task;
    expect(again.completed_at).toBe(done.completed_at);
    expect((await agent.patch(`/api/v1/tasks/${task.id}`, { status: 'open' })).body.task.completed_at).toBeNull();
  });

  it('accepts any status in any order', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    for (const status of ['archived', 'todo', 'done', 'deferred', 'open', 'archived']) {
      expect((await agent.patch(`/api/v1/tasks/${task.id}`, { status })).body.task.status).toBe(status);
    }
  });

  it('keeps project_id inside the task tree and clears it when the task moves', async () => {
    const one = await makeTree(agent);
    const two = await makeTree(agent);
    const inOne = await makeProject(agent, one.id);
    const inTwo = await makeProject(agent, two.id);
    const wrong = await agent.post('/api/v1/tasks', { tree_id: one.id, title: 'x', project_id: inTwo.id });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.code).toBe('conflict');
    const task = await makeTask(agent, one.id, { project_id: inOne.id });
    const moved = (await agent.patch(`/api/v1/tasks/${task.id}`, { tree_id: two.id })).body.task;
    expect(moved).toMatchObject({ tree_id: two.id, project_id: null });
    const into = (await agent.patch(`/api/v1/tasks/${task.id}`, { tree_id: one.id, project_id: inOne.id })).body.task;
    expect(into).toMatchObject({ tree_id: one.id, project_id: inOne.id });
    expect((await agent.patch(`/api/v1/tasks/${task.id}`, { project_id: inTwo.id })).status).toBe(409);
    expect((await agent.patch(`/api/v1/tasks/${task.id}`, { project_id: 'prj_unknown' })).status).toBe(404);
  });

  it('filters lists by tree, project and status', async () => {
    const tree = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const a = await makeTask(agent, tree.id, { project_id: project.id, status: 'open' });
    const b = await makeTask(agent, tree.id, { status: 'open' });
    await makeTask(agent, tree.id, { status: 'done' });
    expect((await agent.get(`/api/v1/tasks?tree_id=${tree.id}&status=open`)).body.items.map((x: any) => x.id)).toEqual([
      a.id,
      b.id,
    ]);
    expect((await agent.get(`/api/v1/tasks?project_id=${project.id}`)).body.items.map((x: any) => x.id)).toEqual([
      a.id,
    ]);
    expect((await agent.get('/api/v1/tasks?status=doing')).status).toBe(400);
  });

  it('deletes a task', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    expect((await agent.delete(`/api/v1/tasks/${task.id}`)).body).toEqual({ ok: true });
    expect((await agent.get(`/api/v1/tasks/${task.id}`)).status).toBe(404);
    expect((await agent.delete(`/api/v1/tasks/${task.id}`)).status).toBe(404);
  });

  it('records history for every write, with the changed fields', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id, { title: 'One' });
    await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Two', status: 'done' });
    await agent.delete(`/api/v1/tasks/${task.id}`);
    const history = (await agent.get(`/api/v1/trees/${tree.id}/export`)).body.history;
    const forTask = history.filter((h: any) => h.entity_id === task.id);
    expect(forTask.map((h: any) => h.action)).toEqual(['created', 'completed', 'deleted']);
    expect(forTask[1]).toMatchObject({
      actor_id: userId,
      via: 'token',
      entity: 'task',
      changes: { title: { from: 'One', to: 'Two' }, status: { from: 'todo', to: 'done' } },
    });
    expect(history[0]).toMatchObject({ entity: 'tree', action: 'created' });
  });

  it('replays an idempotent create once', async () => {
    const tree = await makeTree(agent);
    const headers = { 'idempotency-key': `task-create-${tree.id}` };
    const first = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Once' }, { headers });
    const second = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Once' }, { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await agent.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items).toHaveLength(1);
    const changed = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Twice' }, { headers });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('idempotency_conflict');
  });
});
