import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SqlBool } from 'kysely';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { SHAPE_TASKS_MAX } from '../../src/domain/trees/tree-shape.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { SHAPE_WINDOWS_MAX, shapeTasks, shapeTrees, shapeWindows } from '../../src/store/tree-shapes.js';
import { layoutTree } from '../../web/src/tree/layout.js';
import { paintLeaves } from '../../web/src/tree/leafPaint.js';
import { branchPaths } from '../../web/src/tree/paint.js';
import { shapeInput } from '../../web/src/tree/shapeInput.js';
import { TREE_STYLES, type LayoutInput, type TreeShape, type TreeStyle } from '../../web/src/tree/types.js';

/** The picture as painted, which carries every coordinate and every leaf's look. */
function painted(input: LayoutInput, style: TreeStyle) {
  const layout = layoutTree(input, style);
  return {
    branches: branchPaths(layout.branches),
    leaves: paintLeaves(layout.leaves, new Map(input.tasks.map((t) => [t.id, t]))),
    size: [layout.width, layout.height],
  };
}

/** The trees page's cards draw each tree's own shape (CONTRACT §18): GET /tree-shapes. */
describe.each(databases)('tree shapes for the cards (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let garden: { id: string };
  let empty: { id: string };
  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'grove', verified: true });
    garden = await makeTree(alice.browser, { name: 'Garden', style: 'space-colonization' });
    empty = await makeTree(alice.browser, { name: 'Empty' });
    const beds = await makeProject(alice.browser, garden.id, { name: 'Beds' });
    const roses = await makeProject(alice.browser, garden.id, { name: 'Roses', parent_id: beds.id });
    await makeProject(alice.browser, garden.id, { name: 'Orchard' });
    const statuses = ['todo', 'open', 'done', 'deferred', 'archived'];
    for (let i = 0; i < 23; i++)
      await makeTask(alice.browser, garden.id, {
        title: `Task ${i}`,
        status: statuses[i % statuses.length],
        color: i % 3 === 0 ? '#2b6cb0' : '#6b8e23',
        ...(i % 4 === 1 ? { project_id: beds.id } : i % 4 === 2 ? { project_id: roses.id } : {}),
      });
  });
  afterAll(async () => t.stop());

  it('answers each tree asked, in that order, drawing exactly what its page draws', async () => {
    const answer = await alice.browser.get(`/api/v1/tree-shapes?ids=${empty.id},${garden.id}`);
    expect(answer.status, answer.text).toBe(200);
    const [none, shape] = answer.body.items as TreeShape[];
    expect(none).toEqual({
      tree_id: empty.id,
      task_count: 0,
      project_count: 0,
      project_parents: [],
      task_projects: [],
      task_statuses: '',
      task_colors: [],
      colors: [],
    });
    expect(shape!.tree_id).toBe(garden.id);
    expect(shape!.task_count).toBe(19);
    expect(shape!.project_count).toBe(3);
    expect(shape!.task_statuses.length).toBe(19);
    // No word of the tree travels: names, titles, ids of its records.
    expect(answer.text).not.toMatch(/Beds|Roses|Orchard|Task \d|tsk_|prj_/);
    const snapshot = (await alice.browser.get(`/api/v1/trees/${garden.id}`)).body;
    const page: LayoutInput = { treeId: garden.id, name: '', projects: snapshot.projects, tasks: snapshot.tasks };
    for (const style of TREE_STYLES) expect(painted(shapeInput(shape!), style)).toEqual(painted(page, style));
  });

  it('draws a big tree from an even sample that keeps its share of each status', async () => {
    const big = await makeTree(alice.browser, { name: 'Big' });
    const rows = Array.from({ length: 1_200 }, (_, i) => `Chore ${i},${i % 3 === 0 ? 'done' : 'todo'}`);
    const imported = await alice.browser.request('POST', `/api/v1/trees/${big.id}/import`, {
      raw: `title,status\n${rows.join('\n')}\n`,
      contentType: 'text/csv',
    });
    expect(imported.status, imported.text).toBe(201);
    const shape = (await alice.browser.get(`/api/v1/tree-shapes?ids=${big.id}`)).body.items[0] as TreeShape;
    expect(shape.task_count).toBe(1_200);
    // A sample chosen from the index, a quarter larger, trimmed evenly: exactly the drawn count.
    expect(shape.task_projects).toHaveLength(SHAPE_TASKS_MAX);
    const done = shape.task_statuses.replace(/[^d]/g, '').length;
    expect(Math.abs(done - SHAPE_TASKS_MAX / 3)).toBeLessThanOrEqual(SHAPE_TASKS_MAX / 10);
    // The same sample on every read (the ETag holds while nothing changes).
    const again = (await alice.browser.get(`/api/v1/tree-shapes?ids=${big.id}`)).body.items[0];
    expect(again).toEqual(shape);
    expect(layoutTree(shapeInput(shape), 'lsystem').leaves).toHaveLength(SHAPE_TASKS_MAX);
  });

  it('samples a tree made among another tree’s tasks by its own share of each stretch, from a bounded read', async () => {
    // 1,000 done tasks made at once (dense seqs), then 1,500 to do made 15 at a time between
    // batches of 85 of another tree's (sparse seqs): 40 % of the tree is done, but the done
    // stretch holds 9 % of its span of seqs. A sample even over the seqs, not over the tree's
    // tasks, would draw some 9 % done; one read from the first or last index entries, 0 or 100 %.
    const actor = userActor(await getUserByEmail(t.app.deps, alice.email), 'cli');
    const mixed = await makeTree(alice.browser, { name: 'Mixed' });
    const other = await makeTree(alice.browser, { name: 'Other' });
    const tasks = (n: number, status: string) => Array.from({ length: n }, (_, i) => ({ title: `T ${i}`, status }));
    await insertTasksBulk(t.app.deps, actor, mixed.id, tasks(1_000, 'done'));
    for (let i = 0; i < 100; i++) {
      await insertTasksBulk(t.app.deps, actor, mixed.id, tasks(15, 'todo'));
      await insertTasksBulk(t.app.deps, actor, other.id, tasks(85, 'todo'));
    }
    const shape = (await alice.browser.get(`/api/v1/tree-shapes?ids=${mixed.id}`)).body.items[0] as TreeShape;
    expect(shape.task_count).toBe(2_500);
    expect(shape.task_statuses).toHaveLength(SHAPE_TASKS_MAX);
    const done = shape.task_statuses.replace(/[^d]/g, '').length / SHAPE_TASKS_MAX;
    expect(Math.abs(done - 0.4), `done share ${done}`).toBeLessThanOrEqual(0.1);

    // The read behind it: about a tenth of the tree (every = 2,500 / 250), not the tree.
    const [tree] = await shapeTrees(t.app.deps.db, [mixed.id], sql<SqlBool>`r.owner_id = ${alice.user.id}`);
    expect(tree!.drawn).toBe(2_500);
    const rows = await shapeTasks(t.app.deps.db, [{ ...tree!, every: 10 }]);
    expect(rows.length).toBeGreaterThanOrEqual(SHAPE_TASKS_MAX);
    expect(rows.length).toBeLessThanOrEqual(2 * (2_500 / 10));
    expect(rows.every((row) => row.tree_id === mixed.id)).toBe(true);
    // However far apart a tree's first and last tasks, its sample reads a bounded number of ranges.
    for (const [first, last] of [
      [1, 2_500],
      [7, 10_000_000],
      [2 ** 40, 2 ** 40 + 123_456_789],
    ] as const) {
      const w = shapeWindows(10, first, last);
      expect(w.count).toBeLessThanOrEqual(SHAPE_WINDOWS_MAX + 2);
      // The windows cover the span, a tenth of it sampled.
      expect(w.from * w.period).toBeLessThanOrEqual(first);
      expect((w.from + w.count) * w.period).toBeGreaterThan(last);
      expect(w.period).toBe(10 * w.width);
    }
  });

  it('leaves out trees of others and trees outside a credential’s scope, as if they did not exist', async () => {
    const bob = await makeUser(t.url, t.app, { plan: 'grove', verified: true });
    const bobs = await makeTree(bob.browser, { name: 'Bob’s' });
    await makeTask(bob.browser, bobs.id, { title: 'Secret' });
    const mixed = await alice.browser.get(`/api/v1/tree-shapes?ids=${bobs.id},${garden.id},tre_missing`);
    expect(mixed.status).toBe(200);
    expect(mixed.body.items.map((x: TreeShape) => x.tree_id)).toEqual([garden.id]);
    // A token of Alice's limited to the empty tree sees that tree alone.
    const { agent } = await makeToken(alice, { scopes: ['read'], tree_ids: [empty.id] });
    const scoped = await agent.get(`/api/v1/tree-shapes?ids=${garden.id},${empty.id}`);
    expect(scoped.status).toBe(200);
    expect(scoped.body.items.map((x: TreeShape) => x.tree_id)).toEqual([empty.id]);
    // Once Bob shares his tree with Alice, she sees its shape.
    const invited = await bob.browser.post(`/api/v1/trees/${bobs.id}/members`, { email: alice.email, role: 'viewer' });
    expect(invited.status, invited.text).toBe(201);
    expect((await alice.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(200);
    const shared = await alice.browser.get(`/api/v1/tree-shapes?ids=${bobs.id}`);
    expect(shared.body.items).toMatchObject([{ tree_id: bobs.id, task_count: 1, task_statuses: 't' }]);
    // Without a credential: 401.
    expect((await fetch(`${t.url}/api/v1/tree-shapes?ids=${garden.id}`)).status).toBe(401);
  });

  it('refuses a list it cannot answer: none, too many, repeats', async () => {
    for (const ids of ['', Array.from({ length: 101 }, (_, i) => `tre_${i}`).join(','), `${garden.id},${garden.id}`]) {
      const answer = await alice.browser.get(`/api/v1/tree-shapes?ids=${ids}`);
      expect(answer.status, ids).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await alice.browser.get('/api/v1/tree-shapes')).status).toBe(400);
  });

  it('is cached with an ETag that changes when a shape does', async () => {
    const path = `/api/v1/tree-shapes?ids=${garden.id}`;
    const first = await alice.browser.get(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await alice.browser.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const task = await makeTask(alice.browser, garden.id, { title: 'One more' });
    const grown = await alice.browser.get(path, { headers: { 'if-none-match': etag } });
    expect(grown.status).toBe(200);
    expect(grown.body.items[0].task_count).toBe(20);
    const again = grown.headers.get('etag')!;
    expect(again).not.toBe(etag);
    // A status change alone changes the shape (the leaf's look), and so the tag.
    expect((await alice.browser.patch(`/api/v1/tasks/${task.id}`, { status: 'done' })).status).toBe(200);
    expect((await alice.browser.get(path, { headers: { 'if-none-match': again } })).status).toBe(200);
  });
});
