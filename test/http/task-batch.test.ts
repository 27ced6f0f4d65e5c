import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client as Rest } from '../helpers/client.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

const BATCH = '/api/v1/tasks/batch';

/**
 * CONTRACT §17: POST /tasks/batch {create?, update?}, the REST door of the one batch function
 * behind MCP's create_tasks and update_tasks: 1 to 50 items in all, every item or none, and
 * 400 / 404 / 412 with details naming every bad item by index and op.
 */
describe.each(databases)('POST /tasks/batch (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Rest;
  let bobTask: any;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(alice, { scopes: ['read', 'write'] })).agent;
    const bob = await makeUser(t.url, t.app, { plan: 'sprout' });
    bobTask = await makeTask(bob.browser, (await makeTree(bob.browser)).id);
  });
  afterAll(async () => t.stop());

  const tasksOf = async (treeId: string) => (await agent.get(`/api/v1/tasks?tree_id=${treeId}&limit=200`)).body.items;

  it('creates and updates in one change, answering the items in input order', async () => {
    const tree = await makeTree(agent);
    const other = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const old = await makeTask(agent, tree.id, { title: 'old' });
    const answer = await agent.post(BATCH, {
      create: [
        { tree_id: tree.id, title: 'one', project_id: project.id },
        { tree_id: other.id, title: 'two' },
        { tree_id: tree.id, title: 'three' },
      ],
      update: [{ id: old.id, version: 1, title: 'renamed', status: 'done' }],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.created.map((x: any) => [x.title, x.tree_id])).toEqual([
      ['one', tree.id],
      ['two', other.id],
      ['three', tree.id],
    ]);
    expect(answer.body.updated).toEqual([
      expect.objectContaining({ id: old.id, title: 'renamed', status: 'done', version: 2 }),
    ]);
    expect(answer.headers.get('etag')).toBeNull();
    for (const task of [...answer.body.created, ...answer.body.updated])
      expect((await agent.get(`/api/v1/tasks/${task.id}`)).body.task).toEqual(task);
    const history = (await agent.get(`/api/v1/trees/${tree.id}/history?limit=3`)).body.items;
    expect(history.map((h: any) => h.action).sort()).toEqual(['completed', 'created', 'created']);

    const only = await agent.post(BATCH, { update: [{ id: old.id, version: 2, notes: 'n' }] });
    expect(only.status).toBe(200);
    expect(only.body).toEqual({ created: [], updated: [expect.objectContaining({ notes: 'n', version: 3 })] });
  });

  it('refuses a bad item with its code and every bad item by index and op, writing nothing', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'v2' });
    const before = await tasksOf(tree.id);

    const invalid = await agent.post(BATCH, {
      create: [{ tree_id: tree.id, title: 'ok' }, { tree_id: tree.id }],
      update: [
        { id: task.id, version: 2, title: 'ok' },
        { id: task.id, title: 'x', color: 'red' },
      ],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('validation_failed');
    expect(invalid.body.error.details).toEqual(
      expect.arrayContaining([
        { index: 1, op: 'create', path: '/title', message: expect.any(String) },
        { index: 1, op: 'update', path: '/version', message: expect.any(String) },
        { index: 1, op: 'update', path: '/color', message: expect.any(String) },
      ]),
    );
    expect(invalid.body.error.details.every((d: any) => d.index === 1)).toBe(true);

    const missing = await agent.post(BATCH, {
      create: [
        { tree_id: tree.id, title: 'ok' },
        { tree_id: 'tre_nope', title: 'x' },
      ],
      update: [{ id: bobTask.id, version: 1, title: 'x' }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'not_found',
      details: [
        { index: 1, op: 'create' },
        { index: 0, op: 'update' },
      ],
    });

    const stale = await agent.post(BATCH, {
      create: [{ tree_id: tree.id, title: 'ok' }],
      update: [{ id: task.id, version: 1, title: 'x' }],
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({
      code: 'precondition_failed',
      details: [{ index: 0, op: 'update', current_version: 2 }],
    });

    for (const body of [
      {},
      { create: [] },
      {
        create: Array.from({ length: 26 }, () => ({ tree_id: tree.id, title: 'x' })),
        update: Array.from({ length: 25 }, () => ({ id: task.id, version: 2 })),
      },
    ]) {
      const refused = await agent.post(BATCH, body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
    }
    expect(await tasksOf(tree.id)).toEqual(before);
  });

  it('needs write and a paid plan, as every API write', async () => {
    const tree = await makeTree(agent);
    const reader = (await makeToken(alice, { scopes: ['read'] })).agent;
    const refused = await reader.post(BATCH, { create: [{ tree_id: tree.id, title: 'x' }] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const seed = await makeUser(t.url, t.app, { plan: 'sprout' });
    const seedTree = await makeTree(seed.browser);
    const seedAgent = (await makeToken(seed, { scopes: ['read', 'write'] })).agent;
    await setUserPlan(t.app.deps, seed.email, 'seed', null);
    const seedRefused = await seedAgent.post(BATCH, { create: [{ tree_id: seedTree.id, title: 'x' }] });
    expect(seedRefused.status).toBe(403);
    expect(seedRefused.body.error.code).toBe('plan_read_only');
    expect(await tasksOf(tree.id)).toEqual([]);
    // The browser app writes through it too.
    const browser = await alice.browser.post(BATCH, { create: [{ tree_id: tree.id, title: 'from the app' }] });
    expect(browser.status).toBe(200);
  });
});
