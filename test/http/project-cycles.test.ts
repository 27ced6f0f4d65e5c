import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startTestApp, type TestEnv } from '../helpers/app.js';
import { envOf, spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { openDeps } from '../../src/app.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';
import type { Db } from '../../src/store/db.js';

/** Every project of the tree whose parent chain comes back to it, found by a walk bounded by the project count. */
async function projectsOnCycles(db: Db, treeId: string): Promise<string[]> {
  const rows = await db.selectFrom('projects').select(['id', 'parent_id']).where('tree_id', '=', treeId).execute();
  const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
  return rows
    .filter((row) => {
      let at = row.parent_id;
      for (let step = 0; at !== null && step <= rows.length; step++) {
        if (at === row.id) return true;
        at = parentOf.get(at) ?? null;
      }
      return false;
    })
    .map((r) => r.id);
}

describe.each(databases)('project parents under concurrency and bad data (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
  });
  afterAll(async () => t.stop());

  it('parallel parent swaps never store a cycle, and the service stays responsive', { timeout: 60_000 }, async () => {
    const tree = await makeTree(agent);
    for (let round = 0; round < 20; round++) {
      const a = await makeProject(agent, tree.id, { name: `A${round}` });
      const b = await makeProject(agent, tree.id, { name: `B${round}` });
      const answers = await Promise.all([
        agent.patch(`/api/v1/projects/${a.id}`, { parent_id: b.id }),
        agent.patch(`/api/v1/projects/${b.id}`, { parent_id: a.id }),
      ]);
      // One move wins; the other sees the winner's parent and is refused as a cycle.
      expect(answers.map((x) => x.status).sort(), `round ${round}`).toEqual([200, 409]);
      expect(await projectsOnCycles(t.app.deps.db, tree.id), `round ${round}`).toEqual([]);
    }
    expect((await agent.get('/readyz')).status).toBe(200);
    expect((await agent.get(`/api/v1/trees/${tree.id}`)).status).toBe(200);
  });

  it(
    'parallel moves across trees in opposite directions neither deadlock nor split a subtree',
    { timeout: 60_000 },
    async () => {
      const left = await makeTree(agent);
      const right = await makeTree(agent);
      for (let round = 0; round < 10; round++) {
        const top = await makeProject(agent, left.id);
        const child = await makeProject(agent, left.id, { parent_id: top.id });
        const task = await makeTask(agent, left.id, { project_id: child.id });
        const carried = await makeTask(agent, left.id, { project_id: child.id });
        const other = await makeTask(agent, right.id);
        const answers = await Promise.all([
          agent.patch(`/api/v1/projects/${top.id}`, { tree_id: right.id }),
          agent.patch(`/api/v1/tasks/${other.id}`, { tree_id: left.id }),
          agent.patch(`/api/v1/tasks/${task.id}`, { project_id: null }),
          // An edit of another field must not put the task back in the tree it read before the move.
          agent.patch(`/api/v1/tasks/${carried.id}`, { title: `renamed ${round}` }),
        ]);
        expect(
          answers.map((x) => x.status),
          `round ${round}`,
        ).toEqual([200, 200, 200, 200]);
        expect((await agent.get(`/api/v1/tasks/${carried.id}`)).body.task).toMatchObject({
          tree_id: right.id,
          title: `renamed ${round}`,
        });
        const childNow = (await agent.get(`/api/v1/projects/${child.id}`)).body.project;
        expect(childNow.tree_id).toBe(right.id);
        // The task either left its project before the move (and stayed) or moved with it.
        const taskNow = (await agent.get(`/api/v1/tasks/${task.id}`)).body.task;
        expect(taskNow.project_id).toBeNull();
        expect(taskNow.tree_id === left.id || taskNow.tree_id === right.id).toBe(true);
      }
      for (const tree of [left, right]) {
        const { tree: counted } = (await agent.get(`/api/v1/trees/${tree.id}`)).body;
        const rows = await t.app.deps.db.selectFrom('tasks').select('id').where('tree_id', '=', tree.id).execute();
        const projects = await t.app.deps.db
          .selectFrom('projects')
          .select('id')
          .where('tree_id', '=', tree.id)
          .execute();
        const stored = await t.app.deps.db
          .selectFrom('trees')
          .select(['task_count', 'project_count'])
          .where('id', '=', counted.id)
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({ task_count: rows.length, project_count: projects.length });
      }
    },
  );
});

// In a server process of its own: on SQLite a looping query would block the event loop that
// answers, and here the test's own timeout still fails it instead of hanging the test run.
describe.each(databases)('a cycle planted in the database (%s, server process)', (kind) => {
  let env: TestEnv;
  let server: ServerProcess;
  let side: Awaited<ReturnType<typeof openDeps>>;
  let agent: Client;
  beforeAll(async () => {
    env = makeTestEnv(kind);
    server = await spawnServer(envOf(env));
    side = await openDeps(env.config);
    const person = await makeUser(server.url);
    await setUserPlan(side.deps, person.email, 'sprout', null);
    agent = (await makeToken(person)).agent;
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
    await side.close();
    await env.dispose();
  });

  it('a cycle planted in the database cannot make a read, move or delete loop', { timeout: 20_000 }, async () => {
    const tree = await makeTree(agent);
    const elsewhere = await makeTree(agent);
    const plant = async () => {
      const a = await makeProject(agent, tree.id, { name: 'A' });
      const b = await makeProject(agent, tree.id, { name: 'B', parent_id: a.id });
      await makeTask(agent, tree.id, { project_id: b.id });
      // Bypasses the domain: the data a race or a hand edit could have left behind.
      await side.deps.db.updateTable('projects').set({ parent_id: b.id }).where('id', '=', a.id).execute();
      expect((await projectsOnCycles(side.deps.db, tree.id)).sort()).toEqual([a.id, b.id].sort());
      return { a, b };
    };

    const first = await plant();
    expect((await agent.get(`/api/v1/trees/${tree.id}`)).status).toBe(200);
    expect((await agent.get(`/api/v1/trees/${tree.id}/export`)).status).toBe(200);
    // Under a project of the cycle: the walk of the moved project's subtree must end.
    const outside = await makeProject(agent, tree.id);
    expect((await agent.patch(`/api/v1/projects/${outside.id}`, { parent_id: first.a.id })).status).toBe(200);
    expect((await agent.patch(`/api/v1/projects/${first.b.id}`, { parent_id: outside.id })).status).toBe(409);
    const moved = await agent.patch(`/api/v1/projects/${first.a.id}`, { tree_id: elsewhere.id });
    expect(moved.status).toBe(200);
    expect((await agent.get(`/api/v1/projects/${first.b.id}`)).body.project.tree_id).toBe(elsewhere.id);
    expect((await agent.get(`/api/v1/projects/${outside.id}`)).body.project.tree_id).toBe(elsewhere.id);

    const second = await plant();
    const removed = await agent.delete(`/api/v1/projects/${second.a.id}?cascade=true`);
    expect(removed.status).toBe(200);
    expect((await agent.get(`/api/v1/projects/${second.b.id}`)).status).toBe(404);
    expect((await agent.get('/readyz')).status).toBe(200);
  });
});
