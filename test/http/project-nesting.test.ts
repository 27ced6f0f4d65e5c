import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { newId, nowIso } from '../../src/domain/ids.js';
import type { Client } from '../helpers/client.js';
import type { Db } from '../../src/store/db.js';

const MAX = 64;

function importCsv(client: Client, treeId: string, csv: string) {
  return client.request('POST', `/api/v1/trees/${treeId}/import`, { raw: csv, contentType: 'text/csv' });
}

/** A chain of `levels` projects made through the API, top first. */
async function chainThroughApi(
  client: Client,
  treeId: string,
  levels: number,
  under: string | null = null,
): Promise<string[]> {
  const ids: string[] = [];
  let parent = under;
  for (let level = 1; level <= levels; level++) {
    const project = await makeProject(client, treeId, { name: `L${level}`, parent_id: parent });
    ids.push(project.id);
    parent = project.id;
  }
  return ids;
}

/**
 * A chain of `levels` projects written straight into the store, past the API's limit: the data
 * an import made before the limit existed. The tree's counter is kept as the domain keeps it.
 */
async function plantChain(db: Db, tree: { id: string; owner_id: string }, levels: number): Promise<string[]> {
  const now = nowIso();
  const ids = Array.from({ length: levels }, () => newId('prj'));
  const rows = ids.map((id, i) => ({
    id,
    owner_id: tree.owner_id,
    tree_id: tree.id,
    parent_id: i === 0 ? null : ids[i - 1]!,
    name: `L${i + 1}`,
    description: '',
    color: '#2e7d32',
    position: 0,
    created_at: now,
    updated_at: now,
  }));
  for (let start = 0; start < rows.length; start += 200)
    await db
      .insertInto('projects')
      .values(rows.slice(start, start + 200))
      .execute();
  await db
    .updateTable('trees')
    .set((eb) => ({ project_count: eb('project_count', '+', levels) }))
    .where('id', '=', tree.id)
    .execute();
  return ids;
}

async function leftInStore(db: Db, column: 'tree_id' | 'owner_id', value: string): Promise<number[]> {
  const counts = [];
  for (const table of ['projects', 'tasks', 'history'] as const) {
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', value)
      .executeTakeFirstOrThrow();
    counts.push(Number(n));
  }
  return counts;
}

function expectTooDeep(answer: { status: number; body: any; text: string }, path = '/parent_id') {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.error.code).toBe('validation_failed');
  expect(answer.body.error.details).toEqual([{ path, message: expect.stringContaining(`at most ${MAX}`) }]);
}

describe.each(databases)('project nesting depth (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
  });
  afterAll(async () => t.stop());

  it('creates projects 64 levels deep and refuses the 65th', { timeout: 60_000 }, async () => {
    const tree = await makeTree(owner.browser);
    const chain = await chainThroughApi(owner.browser, tree.id, MAX);
    expectTooDeep(
      await owner.browser.post('/api/v1/projects', { tree_id: tree.id, name: 'L65', parent_id: chain.at(-1) }),
    );
    expect((await owner.browser.get(`/api/v1/projects?tree_id=${tree.id}&limit=100`)).body.items).toHaveLength(MAX);
    // One level up there is room.
    expect(
      (await owner.browser.post('/api/v1/projects', { tree_id: tree.id, name: 'L64b', parent_id: chain.at(-2) }))
        .status,
    ).toBe(201);
  });

  it(
    'refuses a move whose subtree would reach below level 64, in the tree and across trees',
    { timeout: 60_000 },
    async () => {
      const tree = await makeTree(owner.browser);
      const chain = await chainThroughApi(owner.browser, tree.id, MAX - 2);
      // A subtree three levels tall: its deepest project counts, not only the one moved.
      const [top, middle] = await chainThroughApi(owner.browser, tree.id, 3);
      expectTooDeep(await owner.browser.patch(`/api/v1/projects/${top}`, { parent_id: chain.at(-1) }));
      expect((await owner.browser.get(`/api/v1/projects/${top}`)).body.project.parent_id).toBeNull();
      // Two levels tall fit exactly: 62 + 2 = 64.
      expect((await owner.browser.patch(`/api/v1/projects/${middle}`, { parent_id: chain.at(-1) })).status).toBe(200);

      const other = await makeTree(owner.browser);
      const [otherTop] = await chainThroughApi(owner.browser, other.id, 3);
      expectTooDeep(
        await owner.browser.patch(`/api/v1/projects/${otherTop}`, { tree_id: tree.id, parent_id: chain.at(-1) }),
      );
      expect((await owner.browser.get(`/api/v1/projects/${otherTop}`)).body.project.tree_id).toBe(other.id);
      expect(
        (await owner.browser.patch(`/api/v1/projects/${otherTop}`, { tree_id: tree.id, parent_id: chain.at(-2) }))
          .status,
      ).toBe(200);
    },
  );

  it(
    'imports a 64-level path and refuses a deeper one, naming its row, importing nothing',
    { timeout: 60_000 },
    async () => {
      const tree = await makeTree(owner.browser);
      const path = (levels: number) => Array.from({ length: levels }, (_, i) => `P${i + 1}`).join('/');
      const accepted = await importCsv(owner.browser, tree.id, `title,project\nDeep enough,${path(MAX)}\n`);
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.body.created).toEqual({ projects: MAX, tasks: 1 });

      const fresh = await makeTree(owner.browser);
      const refused = await importCsv(
        owner.browser,
        fresh.id,
        `title,project\nFine,A/B\nToo deep,${path(MAX + 1)}\nMuch too deep,${path(1001)}\n`,
      );
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
      expect(refused.body.error.details).toEqual([
        { row: 3, column: 'project', message: expect.stringContaining(`${MAX + 1} levels deep; at most ${MAX}`) },
        { row: 4, column: 'project', message: expect.stringContaining(`1001 levels deep; at most ${MAX}`) },
      ]);
      const snapshot = (await owner.browser.get(`/api/v1/trees/${fresh.id}`)).body;
      expect([snapshot.projects.length, snapshot.tasks.length]).toEqual([0, 0]);
    },
  );
});

// Trees made before the limit: deletes take them whole, whatever their depth, on both databases.
describe.each(databases)('deleting 1,001 levels of projects (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  async function deepTree(person: Person) {
    const tree = await makeTree(person.browser);
    const chain = await plantChain(t.app.deps.db, tree, 1001);
    await makeTask(person.browser, tree.id, { project_id: chain.at(-1) });
    await makeTask(person.browser, tree.id, { project_id: chain[0] });
    return { tree, chain };
  }

  it('deletes the tree and leaves nothing of it', { timeout: 60_000 }, async () => {
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const { tree } = await deepTree(owner);
    const removed = await owner.browser.delete(`/api/v1/trees/${tree.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(await leftInStore(t.app.deps.db, 'tree_id', tree.id)).toEqual([0, 0, 0]);
    expect((await owner.browser.get(`/api/v1/trees/${tree.id}`)).status).toBe(404);
  });

  it('deletes a project with its 1,000 levels below, and the tree keeps its count', { timeout: 60_000 }, async () => {
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const { tree, chain } = await deepTree(owner);
    const kept = await makeProject(owner.browser, tree.id, { name: 'Kept' });
    const removed = await owner.browser.delete(`/api/v1/projects/${chain[0]}?cascade=true`);
    expect(removed.status, removed.text).toBe(200);
    const snapshot = (await owner.browser.get(`/api/v1/trees/${tree.id}`)).body;
    expect(snapshot.projects.map((p: any) => p.id)).toEqual([kept.id]);
    expect(snapshot.tasks).toEqual([]);
    const counts = await t.app.deps.db
      .selectFrom('trees')
      .select(['project_count', 'task_count'])
      .where('id', '=', tree.id)
      .executeTakeFirstOrThrow();
    expect(counts).toEqual({ project_count: 1, task_count: 0 });
  });

  it('removes an account whose tree nests 1,001 levels', { timeout: 60_000 }, async () => {
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    await deepTree(owner);
    // No door deletes an account yet (CONTRACT §18 DELETE /auth/account): this is the removal it
    // will make, the user's row with everything keyed to it.
    await t.app.deps.db.deleteFrom('users').where('id', '=', owner.user.id).execute();
    expect(await leftInStore(t.app.deps.db, 'owner_id', owner.user.id)).toEqual([0, 0, 0]);
  });
});
