import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { userActor } from '../../src/domain/actor.js';
import { createTask, deleteTask, updateTask } from '../../src/domain/trees/tasks.js';
import { createProject, deleteProject, updateProject } from '../../src/domain/trees/projects.js';

/** Holds the first result that carries `id` until released: a write paused between its read and its update. */
class PauseAfterRead implements KyselyPlugin {
  readonly reached: Promise<void>;
  private arrive!: () => void;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  private paused = false;
  constructor(private readonly id: string) {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (!this.paused && args.result.rows.some((row) => row.id === this.id)) {
      this.paused = true;
      this.arrive();
      await this.gate;
    }
    return args.result;
  }
  go(): void {
    this.release();
  }
}

// Only PostgreSQL runs two writes at once; SQLite's one connection orders them whole.
describe.skipIf(!process.env.TEST_DATABASE_URL)('a write that read before a move (postgres)', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp('postgres');
  });
  afterAll(async () => t.stop());

  const setUp = async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const { agent } = await makeToken(person);
    const user = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', person.user.id)
      .executeTakeFirstOrThrow();
    return {
      person,
      agent,
      actor: userActor(user, 'session'),
      left: await makeTree(agent),
      right: await makeTree(agent),
    };
  };

  /** An editor of the tree: their creates take the general way, whose reads and writes are separate statements. */
  const editorOf = async (owner: Person, tree: string) => {
    const editor = await makeUser(t.url, t.app, { plan: 'grove' });
    const invited = await owner.browser.post(`/api/v1/trees/${tree}/members`, { email: editor.email, role: 'editor' });
    expect(
      (
        await editor.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
          token: inviteToken(invited),
        })
      ).status,
    ).toBe(200);
    const user = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', editor.user.id)
      .executeTakeFirstOrThrow();
    return userActor(user, 'session');
  };

  it('a rename of a project that read it before its parent moved keeps it where the move put it', async () => {
    const { agent, actor, left, right } = await setUp();
    const parent = await makeProject(agent, left.id);
    const child = await makeProject(agent, left.id, { parent_id: parent.id });
    const pause = new PauseAfterRead(child.id);
    const rename = updateProject({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, child.id, {
      name: 'renamed',
    });
    await pause.reached;
    await updateProject(t.app.deps, actor, parent.id, { tree_id: right.id });
    pause.go();
    await rename;
    const stored = await t.app.deps.db
      .selectFrom('projects')
      .select(['tree_id', 'parent_id', 'name'])
      .where('id', '=', child.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ tree_id: right.id, parent_id: parent.id, name: 'renamed' });
  });

  it('an edit of a task that read it before its project moved keeps the task where the move put it', async () => {
    const { agent, actor, left, right } = await setUp();
    const project = await makeProject(agent, left.id);
    const task = await makeTask(agent, left.id, { project_id: project.id });

    const pause = new PauseAfterRead(task.id);
    const edit = updateTask({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, task.id, {
      title: 'renamed',
    });
    await pause.reached;
    await updateProject(t.app.deps, actor, project.id, { tree_id: right.id });
    pause.go();
    await edit;

    const stored = await t.app.deps.db
      .selectFrom('tasks')
      .select(['tree_id', 'owner_id', 'title'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ tree_id: right.id, title: 'renamed' });
    const counts = await t.app.deps.db
      .selectFrom('trees')
      .select(['id', 'task_count'])
      .where('id', 'in', [left.id, right.id])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.id, c.task_count]))).toEqual({ [left.id]: 0, [right.id]: 1 });
  });

  it('a delete of a task that read it before it moved charges the tree it was in at commit', async () => {
    const { agent, actor, left, right } = await setUp();
    const task = await makeTask(agent, left.id);
    const pause = new PauseAfterRead(task.id);
    const removal = deleteTask({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, task.id);
    await pause.reached;
    await updateTask(t.app.deps, actor, task.id, { tree_id: right.id });
    pause.go();
    await removal;
    const counts = await t.app.deps.db
      .selectFrom('trees')
      .select(['id', 'task_count'])
      .where('id', 'in', [left.id, right.id])
      .execute();
    const tasks = await t.app.deps.db
      .selectFrom('tasks')
      .select(['tree_id'])
      .where('tree_id', 'in', [left.id, right.id])
      .execute();
    for (const tree of [left.id, right.id]) {
      expect(counts.find((c) => c.id === tree)!.task_count, tree).toBe(tasks.filter((x) => x.tree_id === tree).length);
    }
  });

  it('a cascade delete of a project that read it before it moved charges the tree it was in at commit', async () => {
    const { agent, actor, left, right } = await setUp();
    const project = await makeProject(agent, left.id);
    await makeTask(agent, left.id, { project_id: project.id });
    const pause = new PauseAfterRead(project.id);
    const removal = deleteProject({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, project.id, {
      cascade: true,
    });
    await pause.reached;
    await updateProject(t.app.deps, actor, project.id, { tree_id: right.id });
    pause.go();
    await removal;
    const counts = await t.app.deps.db
      .selectFrom('trees')
      .select(['id', 'task_count', 'project_count'])
      .where('id', 'in', [left.id, right.id])
      .orderBy('id')
      .execute();
    expect(counts.map((c) => [c.task_count, c.project_count])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('a task or project created under a project that moves meanwhile lands in the tree its parent is in', async () => {
    const { person, agent, actor, left, right } = await setUp();
    // An owner's task create on PostgreSQL is one statement, with nothing to pause between its
    // read and its write (task-create-rules.test.ts races it with a move instead).
    const editor = await editorOf(person, left.id);
    for (const create of ['task', 'project'] as const) {
      const parent = await makeProject(agent, left.id);
      const pause = new PauseAfterRead(parent.id);
      const paused = { ...t.app.deps, db: t.app.deps.db.withPlugin(pause) };
      const created =
        create === 'task'
          ? createTask(paused, editor, { tree_id: left.id, title: 'new', project_id: parent.id }).then((x) => ({
              id: x.id,
              table: 'tasks' as const,
            }))
          : createProject(paused, actor, { tree_id: left.id, name: 'new', parent_id: parent.id }).then((x) => ({
              id: x.id,
              table: 'projects' as const,
            }));
      await pause.reached;
      // Fixed, the creation holds the tree and the move waits for it; unfixed, the move commits first.
      const move = updateProject(t.app.deps, actor, parent.id, { tree_id: right.id });
      await Promise.race([move, new Promise((resolve) => setTimeout(resolve, 300))]);
      pause.go();
      const row = await created;
      await move;
      const stored = await t.app.deps.db
        .selectFrom(row.table)
        .select('tree_id')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(stored.tree_id, create).toBe(right.id);
    }
  });
});
