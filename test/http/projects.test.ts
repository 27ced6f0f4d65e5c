import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('projects (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
  });
  afterAll(async () => t.stop());

  it('creates with defaults and validates every field', async () => {
    const tree = await makeTree(agent);
    const answer = await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'Beds' });
    expect(answer.status).toBe(201);
    expect(answer.body.project).toEqual({
      id: expect.stringMatching(/^prj_/),
      tree_id: tree.id,
      parent_id: null,
      name: 'Beds',
      description: '',
      color: '#6b8e23',
      position: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
    });
    for (const bad of [
      { name: '' },
      { name: 'p'.repeat(161) },
      { description: 'd'.repeat(10_001) },
      { color: '#zzzzzz' },
      { position: -1 },
      { extra: 1 },
    ]) {
      const refused = await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'ok', ...bad });
      expect(refused.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    expect((await agent.post('/api/v1/projects', { name: 'no tree' })).status).toBe(400);
    expect((await agent.post('/api/v1/projects', { tree_id: 'tre_nope', name: 'x' })).status).toBe(404);
  });

  it('keeps parents in the same tree and refuses cycles', async () => {
    const tree = await makeTree(agent);
    const other = await makeTree(agent);
    const a = await makeProject(agent, tree.id, { name: 'A' });
    const b = await makeProject(agent, tree.id, { name: 'B', parent_id: a.id });
    const c = await makeProject(agent, tree.id, { name: 'C', parent_id: b.id });
    const elsewhere = await makeProject(agent, other.id);
    expect(
      (await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'x', parent_id: elsewhere.id })).body.error.code,
    ).toBe('conflict');
    for (const parent of [a.id, b.id, c.id]) {
      const cycle = await agent.patch(`/api/v1/projects/${a.id}`, { parent_id: parent });
      expect(cycle.status).toBe(409);
      expect(cycle.body.error.code).toBe('conflict');
    }
    expect((await agent.patch(`/api/v1/projects/${c.id}`, { parent_id: null })).body.project.parent_id).toBeNull();
    expect((await agent.patch(`/api/v1/projects/${c.id}`, { parent_id: a.id })).body.project.parent_id).toBe(a.id);
  });

  it('moves a project to another tree with its descendants and their tasks', async () => {
    const from = await makeTree(agent);
    const to = await makeTree(agent);
    const top = await makeProject(agent, from.id);
    const child = await makeProject(agent, from.id, { parent_id: top.id });
    const task = await makeTask(agent, from.id, { project_id: child.id });
    const stays = await makeTask(agent, from.id);
    const moved = await agent.patch(`/api/v1/projects/${top.id}`, { tree_id: to.id });
    expect(moved.body.project).toMatchObject({ tree_id: to.id, parent_id: null });
    expect((await agent.get(`/api/v1/projects/${child.id}`)).body.project).toMatchObject({
      tree_id: to.id,
      parent_id: top.id,
    });
    expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task).toMatchObject({
      tree_id: to.id,
      project_id: child.id,
    });
    expect((await agent.get(`/api/v1/tasks/${stays.id}`)).body.task.tree_id).toBe(from.id);
    const snapshot = (await agent.get(`/api/v1/trees/${to.id}`)).body;
    expect(snapshot.projects.map((p: any) => p.id).sort()).toEqual([top.id, child.id].sort());
  });

  it('refuses to delete a non-empty project unless cascade=true, which removes the subtree', async () => {
    const tree = await makeTree(agent);
    const top = await makeProject(agent, tree.id);
    const child = await makeProject(agent, tree.id, { parent_id: top.id });
    const task = await makeTask(agent, tree.id, { project_id: child.id });
    const refused = await agent.delete(`/api/v1/projects/${top.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect((await agent.get(`/api/v1/tasks/${task.id}`)).status).toBe(200);
    expect((await agent.delete(`/api/v1/projects/${top.id}?cascade=true`)).body).toEqual({ ok: true });
    for (const path of [`/api/v1/projects/${top.id}`, `/api/v1/projects/${child.id}`, `/api/v1/tasks/${task.id}`]) {
      expect((await agent.get(path)).status).toBe(404);
    }
    const empty = await makeProject(agent, tree.id);
    expect((await agent.delete(`/api/v1/projects/${empty.id}`)).status).toBe(200);
  });

  it('lists projects of one tree', async () => {
    const tree = await makeTree(agent);
    const a = await makeProject(agent, tree.id);
    const b = await makeProject(agent, tree.id);
    expect((await agent.get(`/api/v1/projects?tree_id=${tree.id}`)).body).toEqual({ items: [a, b], next_cursor: null });
    expect((await agent.get('/api/v1/projects?tree_id=tre_unknown')).status).toBe(404);
  });
});
