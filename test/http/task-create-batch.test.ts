import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor, type Actor } from '../../src/domain/actor.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { planLimits } from '../../src/domain/plans.js';

/**
 * Task creates that arrive together share one transaction and commit (GroupCommit). These tests
 * start many creates in one tick, so they land in one batch, and check that each is still judged
 * alone: the plan limit, the caller's role, foreign ids, history, search and Idempotency-Key.
 */
describe.each(databases)('concurrent task creates sharing a commit (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let ownerActor: Actor;
  let viewer: Person;
  let viewerActor: Actor;
  let agent: Client;
  let treeId: string;
  const limit = planLimits.grove.tasksPerTree;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_PER_MINUTE: '100000' });
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    ownerActor = userActor(await getUserByEmail(t.app.deps, owner.email), 'cli');
    agent = (await makeToken(owner)).agent;
    treeId = (await makeTree(owner.browser)).id;
    viewer = await makeUser(t.url, t.app, { plan: 'grove' });
    viewerActor = userActor(await getUserByEmail(t.app.deps, viewer.email), 'cli');
    await shareWithViewer(treeId);
  });
  afterAll(async () => t.stop());

  /** Makes `viewer` a viewer of the owner's tree (sharing needs the owner on Grove). */
  async function shareWithViewer(tree: string): Promise<void> {
    const invited = await owner.browser.post(`/api/v1/trees/${tree}/members`, { email: viewer.email, role: 'viewer' });
    expect(
      (
        await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
          token: inviteToken(invited),
        })
      ).status,
    ).toBe(200);
  }

  async function counted(tree: string): Promise<{ counter: number; tasks: number; history: number }> {
    const db = t.app.deps.db;
    const [row] = await db.selectFrom('trees').select('task_count').where('id', '=', tree).execute();
    const tasks = await db.selectFrom('tasks').select('id').where('tree_id', '=', tree).execute();
    const history = await db
      .selectFrom('history')
      .select('id')
      .where('tree_id', '=', tree)
      .where('entity', '=', 'task')
      .where('action', '=', 'created')
      .execute();
    return { counter: row!.task_count, tasks: tasks.length, history: history.length };
  }

  it('lets exactly the room left through when 12 creates for 5 places run in one batch, with failures of other kinds mixed in', async () => {
    const tree = (await makeTree(owner.browser)).id;
    await shareWithViewer(tree);
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });
    const foreignProject = await makeProject(stranger.browser, (await makeTree(stranger.browser)).id);
    const otherTreeProject = await makeProject(owner.browser, treeId);
    const project = await makeProject(owner.browser, tree);
    // The counter is what the limit reads: the tree is 5 tasks short of the Grove limit.
    await t.app.deps.db
      .updateTable('trees')
      .set({ task_count: limit - 5 })
      .where('id', '=', tree)
      .execute();
    const create = (actor: Actor, fields: Record<string, unknown>) =>
      createTask(t.app.deps, actor, { tree_id: tree, title: 'placeholder', ...fields }).then(
        (task) => ({ ok: true as const, task }),
        (error: { code?: string }) => ({ ok: false as const, code: error.code }),
      );
    // All started in one tick: they share a transaction, failures interleaved with successes.
    const outcomes = await Promise.all([
      create(viewerActor, { title: 'by a viewer' }),
      ...Array.from({ length: 6 }, (_, i) =>
        create(ownerActor, { title: `batched marigold ${i}`, project_id: project.id }),
      ),
      create(ownerActor, { title: 'foreign project', project_id: foreignProject.id }),
      create(ownerActor, { title: 'project of another tree', project_id: otherTreeProject.id }),
      ...Array.from({ length: 6 }, (_, i) => create(ownerActor, { title: `batched marigold ${i + 6}` })),
    ]);
    expect(outcomes[0]).toEqual({ ok: false, code: 'forbidden' });
    expect(outcomes[7]).toEqual({ ok: false, code: 'not_found' });
    expect(outcomes[8]).toEqual({ ok: false, code: 'conflict' });
    const creates = [...outcomes.slice(1, 7), ...outcomes.slice(9)];
    const made = creates.flatMap((o) => (o.ok ? [o.task] : []));
    expect(made).toHaveLength(5);
    expect(creates.filter((o) => !o.ok).map((o) => (o.ok ? null : o.code))).toEqual(
      Array(7).fill('plan_limit_reached'),
    );
    // The first five in arrival order won, each placed after the one before it.
    expect(made.map((task) => task.title)).toEqual([0, 1, 2, 3, 4].map((i) => `batched marigold ${i}`));
    expect(made.map((task) => task.position)).toEqual([0, 1, 2, 3, 4]);
    // Nothing of a refused create stays: the counter, the rows and the history agree.
    expect(await counted(tree)).toEqual({ counter: limit, tasks: 5, history: 5 });
    // Searchable as soon as the create has answered.
    const found = await owner.browser.get(`/api/v1/search?q=${encodeURIComponent('batched marigold')}&tree_id=${tree}`);
    expect(found.body.items.map((task: { id: string }) => task.id).sort()).toEqual(made.map((task) => task.id).sort());
  });

  it('commits more creates than one batch holds in batches one after another, each answered with its own task', async () => {
    const tree = (await makeTree(owner.browser)).id;
    // Over twice the 32 of a batch, all started in one tick.
    const titles = Array.from({ length: 70 }, (_, i) => `task ${i}`);
    const created = await Promise.all(
      titles.map((title) => createTask(t.app.deps, ownerActor, { tree_id: tree, title })),
    );
    expect(created.map((task) => task.title)).toEqual(titles);
    expect(new Set(created.map((task) => task.position)).size).toBe(70);
    expect(await counted(tree)).toEqual({ counter: 70, tasks: 70, history: 70 });
  });

  it('answers the same over HTTP: 20 parallel creates all commit, each with its history entry', async () => {
    const tree = (await makeTree(owner.browser)).id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        agent.post('/api/v1/tasks', { tree_id: tree, title: `parallel tulip ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.task.position)).size).toBe(20);
    expect(await counted(tree)).toEqual({ counter: 20, tasks: 20, history: 20 });
    const history = await owner.browser.get(`/api/v1/trees/${tree}/history?limit=100`);
    const logged = history.body.items
      .filter((h: { entity: string }) => h.entity === 'task')
      .map((h: { entity_id: string }) => h.entity_id)
      .sort();
    expect(logged).toEqual(answers.map((a) => a.body.task.id).sort());
    const found = await agent.get(`/api/v1/search?q=${encodeURIComponent('parallel tulip')}&tree_id=${tree}&limit=100`);
    expect(found.body.items).toHaveLength(20);
  });

  it('creates once for an Idempotency-Key sent three times at once, replays it, and refuses it with another body', async () => {
    const tree = (await makeTree(owner.browser)).id;
    const key = `batch-key-${kind}-0001`;
    const send = (title: string) =>
      agent.request('POST', '/api/v1/tasks', { body: { tree_id: tree, title }, headers: { 'idempotency-key': key } });
    const first = await Promise.all([send('only once'), send('only once'), send('only once')]);
    const created = first.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // The others wait for the first (409 idempotency_in_progress) or replay its answer.
    for (const answer of first.filter((a) => a.status !== 201))
      expect(answer.body.error.code).toBe('idempotency_in_progress');
    expect(new Set(created.map((a) => a.body.task.id)).size).toBe(1);
    const replay = await send('only once');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.task.id).toBe(created[0]!.body.task.id);
    expect((await send('something else')).body.error.code).toBe('idempotency_conflict');
    expect(await counted(tree)).toEqual({ counter: 1, tasks: 1, history: 1 });
  });

  it('refuses a viewer, a stranger and a foreign project over HTTP without writing anything', async () => {
    const viewerAgent = (await makeToken(viewer)).agent;
    const strangerAgent = (await makeToken(await makeUser(t.url, t.app, { plan: 'grove' }))).agent;
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });
    const foreignTree = (await makeTree(stranger.browser)).id;
    const foreignProject = await makeProject(stranger.browser, foreignTree);
    const before = await counted(treeId);
    const [foreign, foreignTreeAnswer, byViewer, notShared] = await Promise.all([
      agent.post('/api/v1/tasks', { tree_id: treeId, title: 'x', project_id: foreignProject.id }),
      agent.post('/api/v1/tasks', { tree_id: foreignTree, title: 'x' }),
      viewerAgent.post('/api/v1/tasks', { tree_id: treeId, title: 'x' }),
      strangerAgent.post('/api/v1/tasks', { tree_id: treeId, title: 'x' }),
    ]);
    expect([byViewer.status, byViewer.body.error.code]).toEqual([403, 'forbidden']);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    expect([foreignTreeAnswer.status, foreignTreeAnswer.body.error.code]).toEqual([404, 'not_found']);
    expect(notShared.status).toBe(404);
    expect(await counted(treeId)).toEqual(before);
    expect(await counted(foreignTree)).toEqual({ counter: 0, tasks: 0, history: 0 });
  });
});
