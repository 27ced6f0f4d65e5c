import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type pg from 'pg';
import { startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor, type Actor } from '../../src/domain/actor.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { planLimits } from '../../src/domain/plans.js';
import { positionAfter } from '../../src/domain/fields.js';
import { POSITION_MAX } from '../../src/domain/field-bounds.js';
import { positionAfterSql } from '../../src/store/tasks.js';
import { inTransaction, openStore, type Store } from '../../src/store/db.js';
import { lockTrees } from '../../src/store/locks.js';
import type { Deps } from '../../src/domain/deps.js';

/**
 * What a lone create of a loose task in one's own tree sends PostgreSQL: one statement, outside
 * any transaction (its one-statement form, insertLooseTaskAlone). A task in a project takes the
 * ordinary way: begin, the access with the counter, the trees' lock, the project and its tree,
 * the row with its history entry, commit.
 */
const LOOSE_ROUND_TRIPS = 1;
const IN_PROJECT_ROUND_TRIPS = 7;

/** Counts the queries a store sends PostgreSQL (begin and commit too): each is a round trip. */
class RoundTrips {
  count = 0;
  watch(store: Store): void {
    store.pool!.on('connect', (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        this.count++;
        return query(...args);
      };
    });
  }
}

/**
 * createTask is the only copy of a create's rules (issue #31: the PL/pgSQL twin is gone). These
 * tests run creates from separate group commits at once, as separate processes would, and
 * against a move holding the tree, to show that the rules hold under concurrency on PostgreSQL:
 * the limit, positions read after the lock, the project still in the tree. They also hold the
 * create to few statements, which is what keeps its speed.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a task create under concurrency (postgres)', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let actor: Actor;
  let agent: Awaited<ReturnType<typeof makeToken>>['agent'];
  const limit = planLimits.grove.tasksPerTree;

  beforeAll(async () => {
    t = await startTestApp('postgres');
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    actor = userActor(await getUserByEmail(t.app.deps, owner.email), 'cli');
    agent = (await makeToken(owner)).agent;
  });
  afterAll(async () => t.stop());

  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  /** Deps on a store of their own over the same database, with its own group commit, as another process has. */
  const separately = async (trips?: RoundTrips): Promise<Deps> => {
    const store = await openStore(t.env.config);
    stores.push(store);
    trips?.watch(store);
    return { ...t.app.deps, db: store.db };
  };

  async function counted(tree: string) {
    const db = t.app.deps.db;
    const [row] = await db.selectFrom('trees').select('task_count').where('id', '=', tree).execute();
    const tasks = await db
      .selectFrom('tasks')
      .select(['id', 'position'])
      .where('tree_id', '=', tree)
      .orderBy('position')
      .execute();
    const history = await db
      .selectFrom('history')
      .select('entity_id')
      .where('tree_id', '=', tree)
      .where('entity', '=', 'task')
      .where('action', '=', 'created')
      .execute();
    return { counter: row!.task_count, tasks, history: history.map((h) => h.entity_id) };
  }

  it('takes few statements when alone, with its row, counter and history written', async () => {
    const tree = (await makeTree(agent)).id;
    const trips = new RoundTrips();
    const task = await createTask(await separately(trips), actor, {
      tree_id: tree,
      title: 'Prune the apple tree',
      status: 'done',
      position: 7,
    });
    expect(trips.count).toBe(LOOSE_ROUND_TRIPS);
    expect(task).toMatchObject({
      tree_id: tree,
      title: 'Prune the apple tree',
      status: 'done',
      position: 7,
      created_by: actor.user.id,
    });
    expect(task.completed_at).toBe(task.created_at);
    const next = await createTask(await separately(), actor, { tree_id: tree, title: 'Rake the leaves' });
    expect(next.position).toBe(8);
    const { counter, history } = await counted(tree);
    expect({ counter, history: history.sort() }).toEqual({ counter: 2, history: [task.id, next.id].sort() });
    const [entry] = await t.app.deps.db.selectFrom('history').selectAll().where('entity_id', '=', task.id).execute();
    expect(entry).toMatchObject({
      actor_id: actor.user.id,
      via: 'cli',
      entity: 'task',
      action: 'created',
      tree_id: tree,
      owner_id: actor.user.id,
    });
    expect(JSON.parse(entry!.changes)).toEqual({
      title: { from: null, to: 'Prune the apple tree' },
      status: { from: null, to: 'done' },
    });
    // In a project: placed after the project's last task, not the tree's.
    const project = await makeProject(agent, tree);
    const inProject = new RoundTrips();
    const projectDeps = await separately(inProject);
    const first = await createTask(projectDeps, actor, {
      tree_id: tree,
      title: 'Weed',
      project_id: project.id,
    });
    expect(inProject.count).toBeLessThanOrEqual(IN_PROJECT_ROUND_TRIPS);
    const second = await createTask(projectDeps, actor, {
      tree_id: tree,
      title: 'Hoe',
      project_id: project.id,
    });
    expect([first.project_id, first.position, second.position]).toEqual([project.id, 0, 1]);
  });

  it('writes creates that meet in one group commit as one statement each in one transaction, and declines to the full rules at the limit', async () => {
    const tree = (await makeTree(agent)).id;
    const trips = new RoundTrips();
    const deps = await separately(trips);
    // Started in one turn, they join one batch: begin, one statement each, commit.
    const titles = ['Sow', 'Water', 'Thin', 'Mulch', 'Pick'];
    const tasks = await Promise.all(titles.map((title) => createTask(deps, actor, { tree_id: tree, title })));
    expect(trips.count).toBe(titles.length + 2);
    expect(tasks.map((x) => [x.title, x.position])).toEqual(titles.map((title, i) => [title, i]));
    const { counter, history } = await counted(tree);
    expect({ counter, history: history.sort() }).toEqual({ counter: 5, history: tasks.map((x) => x.id).sort() });

    // Two places left: the third and fourth decline, take the full rules in their savepoints and
    // fail alone; the others commit.
    await t.app.deps.db
      .updateTable('trees')
      .set({ task_count: limit - 2 })
      .where('id', '=', tree)
      .execute();
    const outcomes = await Promise.all(
      ['Dig', 'Rake', 'Hoe', 'Weed'].map((title) =>
        createTask(deps, actor, { tree_id: tree, title }).then(
          (task) => task.position,
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    expect(outcomes).toEqual([5, 6, 'plan_limit_reached', 'plan_limit_reached']);
    expect((await counted(tree)).counter).toBe(limit);
  });

  it('lets exactly the room left through when 12 creates from separate group commits meet at the limit, each placed after the one before', async () => {
    const tree = (await makeTree(agent)).id;
    await t.app.deps.db
      .updateTable('trees')
      .set({ task_count: limit - 5 })
      .where('id', '=', tree)
      .execute();
    const deps = await Promise.all(Array.from({ length: 12 }, () => separately()));
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createTask(deps[i]!, actor, { tree_id: tree, title: `raced ${i}` }).then(
          () => 'created',
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
    expect(outcomes.filter((o) => o !== 'created')).toEqual(Array(7).fill('plan_limit_reached'));
    const { counter, tasks, history } = await counted(tree);
    expect(counter).toBe(limit);
    // Read after the tree's lock, each position sees every create committed before it.
    expect(tasks.map((x) => x.position)).toEqual([0, 1, 2, 3, 4]);
    expect(history.sort()).toEqual(tasks.map((x) => x.id).sort());
  });

  it('waits for a move that holds the tree, then finds the project gone and answers as the general way does', async () => {
    const left = (await makeTree(agent)).id;
    const right = (await makeTree(agent)).id;
    const project = await makeProject(agent, left);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (holding = resolve));
    // A move of the project as updateProject makes it: both trees locked, then the row changed.
    const move = inTransaction(t.app.deps.db, async (trx) => {
      await lockTrees(trx, [left, right]);
      await trx.updateTable('projects').set({ tree_id: right }).where('id', '=', project.id).execute();
      holding((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid);
      await held;
    });
    const mover = await holder;
    const create = createTask(await separately(), actor, {
      tree_id: left,
      title: 'Mulch',
      project_id: project.id,
    }).then(
      () => 'created',
      (error: { code?: string }) => error.code,
    );
    // The create waits for the move's lock on the tree before it reads the project.
    for (let waiting = false; !waiting;) {
      const blocked =
        await sql`select 1 from pg_stat_activity where ${mover}::int = any(pg_blocking_pids(pid))`.execute(
          t.app.deps.db,
        );
      waiting = blocked.rows.length > 0;
    }
    release();
    await move;
    expect(await create).toBe('conflict');
    const { counter, tasks } = await counted(left);
    expect({ counter, tasks }).toEqual({ counter: 0, tasks: [] });
  });

  it('places a task after its last sibling in SQL exactly as positionAfter does', async () => {
    for (const last of [null, 0, 41, POSITION_MAX - 1, POSITION_MAX]) {
      const literal = last === null ? sql<number | null>`null::integer` : sql<number | null>`${sql.lit(last)}::integer`;
      const { rows } = await sql<{ position: number }>`select ${positionAfterSql(literal)} as position`.execute(
        t.app.deps.db,
      );
      expect([last, rows[0]!.position]).toEqual([last, positionAfter(last)]);
    }
  });

  it('refuses a tree that is not the actor’s own, changing nothing there', async () => {
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });
    const foreign = (await makeTree(stranger.browser)).id;
    await expect(createTask(await separately(), actor, { tree_id: foreign, title: 'Trespass' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await counted(foreign)).toEqual({ counter: 0, tasks: [], history: [] });
  });
});
