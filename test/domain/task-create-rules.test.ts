import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor, type Actor } from '../../src/domain/actor.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { planLimits } from '../../src/domain/plans.js';
import { inTransaction } from '../../src/store/db.js';
import { lockTrees } from '../../src/store/locks.js';
import type { Deps } from '../../src/domain/deps.js';

/** Counts the statements that go through Kysely's executor (all but begin and commit). */
/**
 * A lone create in one's own tree on PostgreSQL, begin and commit aside: the access with the
 * counter and the last position (chargeOwnTree), then the row with its history entry (insertTask).
 */
const MAX_STATEMENTS = 2;

class StatementCount implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    return args.result;
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

  /** Deps whose database is a Kysely instance of its own, and so has a group commit of its own. */
  const separately = (plugin: KyselyPlugin = new StatementCount()): Deps => ({
    ...t.app.deps,
    db: t.app.deps.db.withPlugin(plugin),
  });

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
    const statements = new StatementCount();
    const task = await createTask(separately(statements), actor, {
      tree_id: tree,
      title: 'Prune the apple tree',
      status: 'done',
      position: 7,
    });
    expect(statements.count).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(task).toMatchObject({
      tree_id: tree,
      title: 'Prune the apple tree',
      status: 'done',
      position: 7,
      created_by: actor.user.id,
    });
    expect(task.completed_at).toBe(task.created_at);
    const next = await createTask(separately(), actor, { tree_id: tree, title: 'Rake the leaves' });
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
    const inProject = new StatementCount();
    const first = await createTask(separately(inProject), actor, {
      tree_id: tree,
      title: 'Weed',
      project_id: project.id,
    });
    const second = await createTask(separately(inProject), actor, {
      tree_id: tree,
      title: 'Hoe',
      project_id: project.id,
    });
    expect([first.project_id, first.position, second.position]).toEqual([project.id, 0, 1]);
  });

  it('lets exactly the room left through when 12 creates from separate group commits meet at the limit, each placed after the one before', async () => {
    const tree = (await makeTree(agent)).id;
    await t.app.deps.db
      .updateTable('trees')
      .set({ task_count: limit - 5 })
      .where('id', '=', tree)
      .execute();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createTask(separately(), actor, { tree_id: tree, title: `raced ${i}` }).then(
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
    const create = createTask(separately(), actor, { tree_id: left, title: 'Mulch', project_id: project.id }).then(
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

  it('refuses a tree that is not the actor’s own, changing nothing there', async () => {
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });
    const foreign = (await makeTree(stranger.browser)).id;
    const statements = new StatementCount();
    await expect(
      createTask(separately(statements), actor, { tree_id: foreign, title: 'Trespass' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await counted(foreign)).toEqual({ counter: 0, tasks: [], history: [] });
  });
});
