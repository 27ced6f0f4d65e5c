import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('trees (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Client;
  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(alice)).agent;
  });
  afterAll(async () => t.stop());

  it('creates a tree with the default style and returns the CONTRACT shape', async () => {
    const answer = await agent.post('/api/v1/trees', { name: 'Home' });
    expect(answer.status).toBe(201);
    expect(answer.body.tree).toEqual({
      id: expect.stringMatching(/^tre_/),
      name: 'Home',
      style: 'tidy-fan',
      owner_id: alice.user.id,
      access: 'owner',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      version: 1,
    });
  });

  it('refuses names outside 1..120, unknown styles and unknown properties, creating nothing', async () => {
    const before = (await agent.get('/api/v1/trees?limit=200')).body.items.length;
    for (const body of [
      { name: '' },
      { name: 'x'.repeat(121) },
      { name: 'ok', style: 'spiral' },
      { name: 'ok', owner_id: 'usr_x' },
      { name: 7 },
      {},
    ]) {
      const answer = await agent.post('/api/v1/trees', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await agent.post('/api/v1/trees', { name: 'x'.repeat(120), style: 'lsystem' })).status).toBe(201);
    expect((await agent.get('/api/v1/trees?limit=200')).body.items.length).toBe(before + 1);
  });

  it('returns a snapshot without archived tasks; the export keeps them', async () => {
    const tree = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const open = await makeTask(agent, tree.id, { project_id: project.id });
    const archived = await makeTask(agent, tree.id, { status: 'archived' });
    const snapshot = await agent.get(`/api/v1/trees/${tree.id}`);
    expect(snapshot.status).toBe(200);
    expect(Object.keys(snapshot.body).sort()).toEqual(['projects', 'tasks', 'tree']);
    expect(snapshot.body.projects.map((p: any) => p.id)).toEqual([project.id]);
    expect(snapshot.body.tasks.map((x: any) => x.id)).toEqual([open.id]);
    const exported = await agent.get(`/api/v1/trees/${tree.id}/export`);
    expect(exported.body.tasks.map((x: any) => x.id)).toEqual([open.id, archived.id]);
  });

  it('patches: empty body is a no-op, fields change and updated_at moves', async () => {
    const tree = await makeTree(agent, { name: 'Before' });
    const same = await agent.patch(`/api/v1/trees/${tree.id}`, {});
    expect(same.status).toBe(200);
    expect(same.body.tree).toEqual(tree);
    const noBody = await agent.request('PATCH', `/api/v1/trees/${tree.id}`);
    expect(noBody.status).toBe(200);
    const renamed = await agent.patch(`/api/v1/trees/${tree.id}`, { name: 'After', style: 'space-colonization' });
    expect(renamed.body.tree).toMatchObject({ name: 'After', style: 'space-colonization' });
    expect((await agent.patch(`/api/v1/trees/${tree.id}`, { name: '' })).status).toBe(400);
    expect((await agent.patch(`/api/v1/trees/${tree.id}`, { colour: 'red' })).status).toBe(400);
  });

  it("lists each tree's last activity: its tasks and projects move it, a deleted task too; updated_at stays the record's own", async () => {
    const tree = await makeTree(agent, { name: 'Busy' });
    const project = await makeProject(agent, tree.id, { name: 'Beds' });
    const task = await makeTask(agent, tree.id, { title: 'Weed' });
    // Everything dated long ago, each part at its own time, so the newest is known.
    const db = t.app.deps.db;
    await db.updateTable('trees').set({ updated_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', tree.id).execute();
    await db.updateTable('history').set({ at: '2020-01-15T00:00:00.000Z' }).where('tree_id', '=', tree.id).execute();
    await db
      .updateTable('projects')
      .set({ updated_at: '2020-02-01T00:00:00.000Z' })
      .where('id', '=', project.id)
      .execute();
    await db.updateTable('tasks').set({ updated_at: '2020-03-01T00:00:00.000Z' }).where('id', '=', task.id).execute();
    const listed = async () => {
      const answer = await agent.get('/api/v1/trees?limit=200');
      expect(answer.status).toBe(200);
      return answer.body.items.find((x: any) => x.id === tree.id);
    };
    expect(await listed()).toMatchObject({
      updated_at: '2020-01-01T00:00:00.000Z',
      last_activity_at: '2020-03-01T00:00:00.000Z',
    });

    const edited = await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Weed the beds' });
    expect(edited.status).toBe(200);
    expect(await listed()).toMatchObject({
      updated_at: '2020-01-01T00:00:00.000Z',
      last_activity_at: edited.body.task.updated_at,
    });
    const renamed = await agent.patch(`/api/v1/projects/${project.id}`, { name: 'Raised beds' });
    expect(renamed.status).toBe(200);
    expect((await listed()).last_activity_at).toBe(renamed.body.project.updated_at);

    // A deletion leaves no row to date it: its history entry does.
    await db.updateTable('tasks').set({ updated_at: '2020-03-01T00:00:00.000Z' }).where('id', '=', task.id).execute();
    await db
      .updateTable('projects')
      .set({ updated_at: '2020-02-01T00:00:00.000Z' })
      .where('id', '=', project.id)
      .execute();
    await db.updateTable('history').set({ at: '2020-01-15T00:00:00.000Z' }).where('tree_id', '=', tree.id).execute();
    const before = new Date().toISOString();
    expect((await agent.delete(`/api/v1/tasks/${task.id}`)).status).toBe(200);
    const after = await listed();
    expect(after.updated_at).toBe('2020-01-01T00:00:00.000Z');
    expect(after.last_activity_at >= before).toBe(true);
    // The tree's own record is unchanged by all this: one tree's GET still says 2020.
    expect((await agent.get(`/api/v1/trees/${tree.id}`)).body.tree.updated_at).toBe('2020-01-01T00:00:00.000Z');
  });

  it('deletes a tree with everything in it', async () => {
    const tree = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const task = await makeTask(agent, tree.id, { project_id: project.id });
    const gone = await agent.delete(`/api/v1/trees/${tree.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ ok: true });
    for (const path of [`/api/v1/trees/${tree.id}`, `/api/v1/projects/${project.id}`, `/api/v1/tasks/${task.id}`]) {
      expect((await agent.get(path)).status).toBe(404);
    }
    expect((await agent.delete(`/api/v1/trees/${tree.id}`)).status).toBe(404);
  });

  it('rejects ids over 160 characters with 400 and unknown ones with 404', async () => {
    expect((await agent.get(`/api/v1/trees/${'a'.repeat(161)}`)).body.error.code).toBe('validation_failed');
    expect((await agent.get('/api/v1/trees/tre_unknown')).status).toBe(404);
  });

  it('works from a browser session with CSRF, even on Seed', async () => {
    const seed = await makeUser(t.url);
    expect((await seed.browser.post('/api/v1/trees', { name: 'Mine' })).status).toBe(201);
    const noCsrf = await seed.browser.post('/api/v1/trees', { name: 'Mine' }, { headers: { 'x-csrf-token': 'nope' } });
    expect(noCsrf.body.error.code).toBe('csrf_failed');
  });

  it('refuses API writes on Seed with plan_read_only, and writes without the scope with insufficient_scope', async () => {
    const seed = await makeUser(t.url);
    const { agent: seedAgent } = await makeToken(seed);
    const refused = await seedAgent.post('/api/v1/trees', { name: 'Nope' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const reader = (await makeToken(alice, { scopes: ['read'] })).agent;
    expect((await reader.post('/api/v1/trees', { name: 'Nope' })).body.error.code).toBe('insufficient_scope');
    const { agent: writer } = await makeToken(alice, { scopes: ['read', 'write'] });
    const { setUserPlan } = await import('../../src/domain/accounts/accounts.js');
    await setUserPlan(t.app.deps, alice.email, 'seed', null);
    try {
      const fellBack = await writer.post('/api/v1/trees', { name: 'Nope' });
      expect(fellBack.status).toBe(403);
      expect(fellBack.body.error.code).toBe('plan_read_only');
      expect((await writer.get('/api/v1/trees')).status).toBe(200);
    } finally {
      await setUserPlan(t.app.deps, alice.email, 'sprout', null);
    }
  });
});
