import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { createTask, insertTasksBulk } from '../../src/domain/trees/tasks.js';

/**
 * Many tasks created at once (insertTasksBulk, as the batch and the CSV import do through
 * siblingPlaces) take the places the same tasks created one by one would: after the highest
 * position so far among their siblings, a given position included.
 */
describe.each(databases)('places of tasks created together (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('puts each task after the highest position so far, as single creates do', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const actor = userActor(await getUserByEmail(t.app.deps, person.email), 'cli');
    const inputs = (projectId: string) => [
      { title: 'a' },
      { title: 'b', position: 5000 },
      { title: 'c' },
      { title: 'd', project_id: projectId },
      { title: 'e', position: 10 },
      { title: 'f' },
      { title: 'g', project_id: projectId, position: 7 },
      { title: 'h', project_id: projectId },
    ];
    const places = async (treeId: string) => {
      const tree = await person.browser.get(`/api/v1/trees/${treeId}`);
      return (tree.body.tasks as { title: string; position: number; project_id: string | null }[])
        .map((task) => [task.title, task.position, task.project_id !== null])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    };

    const one = await makeTree(person.browser);
    const oneProject = await makeProject(person.browser, one.id);
    for (const input of inputs(oneProject.id)) await createTask(t.app.deps, actor, { tree_id: one.id, ...input });
    const together = await makeTree(person.browser);
    const togetherProject = await makeProject(person.browser, together.id);
    await insertTasksBulk(t.app.deps, actor, together.id, inputs(togetherProject.id));

    const expected = await places(one.id);
    const at = (title: string) => expected.find(([t]) => t === title)![1];
    expect([at('c'), at('f'), at('h')]).toEqual([5001, 5002, 8]);
    expect(await places(together.id)).toEqual(expected);
  });
});
