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
    const changeId = answer.headers.get('change-id');
    expect(changeId).toMatch(/^chg_/);
    const history = (await agent.get(`/api/v1/trees/${tree.id}/history?change_id=${changeId}`)).body.items;
    expect(history.map((h: any) => h.action).sort()).toEqual(['completed', 'created', 'created']);
    const elsewhere = (await agent.get(`/api/v1/trees/${other.id}/history?change_id=${changeId}`)).body.items;
    expect(elsewhere.map((h: any) => h.action)).toEqual(['created']);

    const only = await agent.post(BATCH, { update: [{ id: old.id, version: 2, notes: 'n' }] });
    expect(only.status).toBe(200);
    expect(only.body).toEqual({ created: [], updated: [expect.objectContaining({ notes: 'n', version: 3 })] });
  });

  it('writes the rows, entries and counters 50 single creates write, field by field', async () => {
    // Two trees alike: a project, a loose task and a task in the project, placed out of order.
    const setUp = async () => {
      const tree = await makeTree(agent);
      const project = await makeProject(agent, tree.id);
      await makeTask(agent, tree.id, { title: 'loose', position: 500 });
      await makeTask(agent, tree.id, { title: 'in project', project_id: project.id, position: 40 });
      return { tree, project };
    };
    // Loose and in the project, with and without a position (above and below the last one),
    // done with a deadline, a colour, text and notes.
    const items = (tree: any, project: any) =>
      Array.from({ length: 50 }, (_, i) => {
        const item: Record<string, unknown> = { tree_id: tree.id, title: `item ${i}` };
        if (i % 2 === 1) item.project_id = project.id;
        if (i % 5 === 2) item.position = i % 10 === 2 ? 5_000 + i : 3;
        if (i % 7 === 3) Object.assign(item, { status: 'done', deadline: '2027-01-15', color: '#aa3300' });
        if (i % 3 === 0) Object.assign(item, { text: `text ${i}`, notes: `notes ${i}` });
        return item;
      });
    const one = await setUp();
    const answer = await agent.post(BATCH, { create: items(one.tree, one.project) });
    expect(answer.status, answer.text).toBe(200);
    const changeId = answer.headers.get('change-id');
    const other = await setUp();
    const singles = [];
    for (const item of items(other.tree, other.project)) {
      const created = await agent.post('/api/v1/tasks', item);
      expect(created.status, created.text).toBe(201);
      singles.push({ task: created.body.task, changeId: created.headers.get('change-id') });
    }

    const db = t.app.deps.db;
    const rowsOf = (treeId: string) =>
      db.selectFrom('tasks').selectAll().where('tree_id', '=', treeId).orderBy('seq').execute();
    const entriesOf = (treeId: string) =>
      db.selectFrom('history').selectAll().where('tree_id', '=', treeId).orderBy('seq').execute();
    const [batchRows, singleRows] = [await rowsOf(one.tree.id), await rowsOf(other.tree.id)];
    const [batchEntries, singleEntries] = [await entriesOf(one.tree.id), await entriesOf(other.tree.id)];
    expect(batchRows).toHaveLength(52);
    expect(batchEntries).toHaveLength(54);
    // What differs by nature: ids, moments, sequences and each write's change; the rest is equal.
    const names = new Map<string, string>([
      [one.tree.id, 'tree'],
      [other.tree.id, 'tree'],
      [one.project.id, 'project'],
      [other.project.id, 'project'],
    ]);
    batchRows.forEach((row, i) => names.set(row.id, `task ${i}`));
    singleRows.forEach((row, i) => names.set(row.id, `task ${i}`));
    const moment = (value: string | null) => (value === null ? null : 'moment');
    const task = (row: (typeof batchRows)[number]) => ({
      ...row,
      seq: 'seq',
      id: names.get(row.id),
      tree_id: names.get(row.tree_id),
      project_id: row.project_id === null ? null : names.get(row.project_id),
      created_at: moment(row.created_at),
      updated_at: moment(row.updated_at),
      completed_at: moment(row.completed_at),
    });
    const entry = (row: (typeof batchEntries)[number]) => ({
      ...row,
      seq: 'seq',
      id: 'id',
      tree_id: names.get(row.tree_id),
      entity_id: names.get(row.entity_id) ?? row.entity_id,
      at: 'moment',
      change_id: 'change',
    });
    expect(batchRows.map(task)).toEqual(singleRows.map(task));
    expect(batchEntries.map(entry)).toEqual(singleEntries.map(entry));
    // Every entry of the batch carries its one change (CONTRACT §16.3); each single create its own.
    expect(changeId).toMatch(/^chg_/);
    expect(batchEntries.slice(4).map((e) => e.change_id)).toEqual(Array(50).fill(changeId));
    expect(singleEntries.slice(4).map((e) => e.change_id)).toEqual(singles.map((s) => s.changeId));
    expect(new Set(singles.map((s) => s.changeId)).size).toBe(50);
    // The answers are the stored records, as single creates answer theirs.
    const stored = (treeId: string) =>
      db.selectFrom('trees').select(['task_count', 'project_count']).where('id', '=', treeId).executeTakeFirstOrThrow();
    expect(await stored(one.tree.id)).toEqual(await stored(other.tree.id));
    for (const [i, created] of answer.body.created.entries()) {
      expect((await agent.get(`/api/v1/tasks/${created.id}`)).body.task).toEqual(created);
      const { id, tree_id, project_id, created_at, updated_at, completed_at, ...rest } = singles[i]!.task;
      expect(created).toMatchObject(rest);
      expect([created.project_id === null, created.completed_at === null]).toEqual([
        project_id === null,
        completed_at === null,
      ]);
      expect([id, tree_id, created_at, updated_at]).toEqual([
        expect.any(String),
        other.tree.id,
        expect.any(String),
        expect.any(String),
      ]);
    }
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
    expect(stale.headers.get('change-id')).toBeNull();
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
