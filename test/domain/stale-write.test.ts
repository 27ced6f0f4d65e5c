import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { userActor } from '../../src/domain/actor.js';
import { updateTask } from '../../src/domain/trees/tasks.js';
import { updateProject } from '../../src/domain/trees/projects.js';

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
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent } = await makeToken(person);
    const user = await t.app.deps.db.selectFrom('users').selectAll().where('id', '=', person.user.id).executeTakeFirstOrThrow();
    return { agent, actor: userActor(user, 'session'), left: await makeTree(agent), right: await makeTree(agent) };
  };

  it('a rename of a project that read it before its parent moved keeps it where the move put it', async () => {
    const { agent, actor, left, right } = await setUp();
    const parent = await makeProject(agent, left.id);
    const child = await makeProject(agent, left.id, { parent_id: parent.id });
    const pause = new PauseAfterRead(child.id);
    const rename = updateProject({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, child.id, { name: 'renamed' });
    await pause.reached;
    await updateProject(t.app.deps, actor, parent.id, { tree_id: right.id });
    pause.go();
    await rename;
    const stored = await t.app.deps.db.selectFrom('projects').select(['tree_id', 'parent_id', 'name']).where('id', '=', child.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ tree_id: right.id, parent_id: parent.id, name: 'renamed' });
  });

  it('an edit of a task that read it before its project moved keeps the task where the move put it', async () => {
    const { agent, actor, left, right } = await setUp();
    const project = await makeProject(agent, left.id);
    const task = await makeTask(agent, left.id, { project_id: project.id });

    const pause = new PauseAfterRead(task.id);
    const edit = updateTask({ ...t.app.deps, db: t.app.deps.db.withPlugin(pause) }, actor, task.id, { title: 'renamed' });
    await pause.reached;
    await updateProject(t.app.deps, actor, project.id, { tree_id: right.id });
    pause.go();
    await edit;

    const stored = await t.app.deps.db.selectFrom('tasks').select(['tree_id', 'owner_id', 'title']).where('id', '=', task.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ tree_id: right.id, title: 'renamed' });
    const counts = await t.app.deps.db.selectFrom('trees').select(['id', 'task_count']).where('id', 'in', [left.id, right.id]).orderBy('id').execute();
    expect(Object.fromEntries(counts.map((c) => [c.id, c.task_count]))).toEqual({ [left.id]: 0, [right.id]: 1 });
  });
});
