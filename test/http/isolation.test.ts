import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('tenant isolation (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Client;
  let bob: Client;
  let tree: any;
  let project: any;
  let task: any;
  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    bob = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    tree = await makeTree(alice, { name: 'Private' });
    project = await makeProject(alice, tree.id);
    task = await makeTask(alice, tree.id, { project_id: project.id, title: 'secret plan' });
  });
  afterAll(async () => t.stop());

  it('answers 404 for foreign ids in paths, for every method', async () => {
    const paths = [
      `/api/v1/trees/${tree.id}`,
      `/api/v1/trees/${tree.id}/export`,
      `/api/v1/projects/${project.id}`,
      `/api/v1/tasks/${task.id}`,
    ];
    for (const path of paths) {
      const read = await bob.get(path);
      expect(read.status, path).toBe(404);
      expect(read.body.error.code).toBe('not_found');
    }
    for (const path of paths.filter((p) => !p.endsWith('export'))) {
      expect((await bob.patch(path, {})).status, path).toBe(404);
      expect((await bob.delete(path)).status, path).toBe(404);
    }
    expect((await alice.get(`/api/v1/tasks/${task.id}`)).body.task.title).toBe('secret plan');
  });

  it('answers 404 for foreign ids in query filters and inside bodies', async () => {
    expect((await bob.get(`/api/v1/tasks?tree_id=${tree.id}`)).status).toBe(404);
    expect((await bob.get(`/api/v1/tasks?project_id=${project.id}`)).status).toBe(404);
    expect((await bob.get(`/api/v1/projects?tree_id=${tree.id}`)).status).toBe(404);
    const own = await makeTree(bob);
    const ownTask = await makeTask(bob, own.id);
    const ownProject = await makeProject(bob, own.id);
    expect((await bob.post('/api/v1/tasks', { tree_id: tree.id, title: 'x' })).status).toBe(404);
    expect((await bob.post('/api/v1/tasks', { tree_id: own.id, title: 'x', project_id: project.id })).status).toBe(404);
    expect((await bob.post('/api/v1/projects', { tree_id: tree.id, name: 'x' })).status).toBe(404);
    expect((await bob.post('/api/v1/projects', { tree_id: own.id, name: 'x', parent_id: project.id })).status).toBe(
      404,
    );
    expect((await bob.patch(`/api/v1/tasks/${ownTask.id}`, { tree_id: tree.id })).status).toBe(404);
    expect((await bob.patch(`/api/v1/tasks/${ownTask.id}`, { project_id: project.id })).status).toBe(404);
    expect((await bob.patch(`/api/v1/projects/${ownProject.id}`, { tree_id: tree.id })).status).toBe(404);
    expect((await bob.patch(`/api/v1/projects/${ownProject.id}`, { parent_id: project.id })).status).toBe(404);
    expect((await alice.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items).toHaveLength(1);
  });

  it("never lists another owner's records", async () => {
    for (const path of ['/api/v1/trees', '/api/v1/projects', '/api/v1/tasks']) {
      const items = (await bob.get(`${path}?limit=200`)).body.items;
      expect(
        items.some((r: any) => [tree.id, project.id, task.id].includes(r.id) || r.tree_id === tree.id),
        path,
      ).toBe(false);
    }
  });

  it('never answers 304 or an idempotent replay across accounts', async () => {
    const first = await alice.get(`/api/v1/tasks/${task.id}`);
    const etag = first.headers.get('etag')!;
    expect((await alice.get(`/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await bob.get(`/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag } })).status).toBe(404);
    const anonymous = await fetch(`${t.url}/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag } });
    expect(anonymous.status).toBe(401);
    const headers = { 'idempotency-key': 'shared-key-123' };
    const made = await alice.post('/api/v1/trees', { name: 'Keyed' }, { headers });
    const other = await bob.post('/api/v1/trees', { name: 'Keyed' }, { headers });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.tree.id).not.toBe(made.body.tree.id);
  });
});
