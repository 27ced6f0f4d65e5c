import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { getUserByEmail, setUserPlan } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { purgeHistory } from '../../src/domain/trees/history-purge.js';

describe.each(databases)('plan limits, export budget and history window (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  async function actorOf(person: Person) {
    return userActor(await getUserByEmail(t.app.deps, person.email), 'cli');
  }

  it('lets exactly one of 20 parallel tree creates through at the limit minus one', async () => {
    const person = await makeUser(t.url);
    await makeTree(person.browser);
    await makeTree(person.browser);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => person.browser.post('/api/v1/trees', { name: `t${i}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 403);
    expect(refused).toHaveLength(19);
    expect(refused[0]!.body.error).toMatchObject({
      code: 'plan_limit_reached',
      details: [{ limit: 'trees', value: 3 }],
    });
  });

  it('lets exactly one of 20 parallel task creates through at the limit minus one', async () => {
    const person = await makeUser(t.url);
    const tree = await makeTree(person.browser);
    await insertTasksBulk(
      t.app.deps,
      await actorOf(person),
      tree.id,
      Array.from({ length: 499 }, (_, i) => ({ title: `seeded ${i}` })),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        person.browser.post('/api/v1/tasks', { tree_id: tree.id, title: `race ${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 403).map((a) => a.body.error.details[0])).toEqual(
      Array(19).fill({ limit: 'tasks_per_tree', value: 500 }),
    );
    // Deleting frees room again; moving a task in counts against the target tree.
    const items = (await person.browser.get(`/api/v1/tasks?tree_id=${tree.id}&limit=1`)).body.items;
    await person.browser.delete(`/api/v1/tasks/${items[0].id}`);
    expect((await person.browser.post('/api/v1/tasks', { tree_id: tree.id, title: 'room' })).status).toBe(201);
    const other = await makeTree(person.browser);
    const outsider = (await person.browser.post('/api/v1/tasks', { tree_id: other.id, title: 'mover' })).body.task;
    expect((await person.browser.patch(`/api/v1/tasks/${outsider.id}`, { tree_id: tree.id })).body.error.code).toBe(
      'plan_limit_reached',
    );
  });

  it('lets exactly one of 20 parallel project creates through at the limit minus one', async () => {
    const person = await makeUser(t.url);
    const tree = await makeTree(person.browser);
    for (let i = 0; i < 49; i++) await makeProject(person.browser, tree.id, { name: `p${i}` });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        person.browser.post('/api/v1/projects', { tree_id: tree.id, name: `race ${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 403)[0]!.body.error.details).toEqual([
      { limit: 'projects_per_tree', value: 50 },
    ]);
  });

  it('refuses an export over 10,000 contributors with 413 and the counts', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const { agent } = await makeToken(person);
    const tree = await makeTree(agent);
    const actor = await actorOf(person);
    // 4,999 tasks + an `imported` entry for each (CONTRACT §16.3) + the tree's creation = 9,999: still fits.
    await insertTasksBulk(
      t.app.deps,
      actor,
      tree.id,
      Array.from({ length: 4_999 }, (_, i) => ({ title: `t${i}` })),
    );
    const fits = await agent.get(`/api/v1/trees/${tree.id}/export`);
    expect(fits.status).toBe(200);
    expect(fits.body.tasks).toHaveLength(4_999);
    await insertTasksBulk(t.app.deps, actor, tree.id, [{ title: 'one more' }]);
    const over = await agent.get(`/api/v1/trees/${tree.id}/export`);
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('export_too_large');
    expect(over.body.error.details[0]).toMatchObject({ contributors: 10_001, max_contributors: 10_000 });
  });

  it('refuses an export over 8 MiB of raw text, counted in UTF-8 bytes', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const { agent } = await makeToken(person);
    const tree = await makeTree(agent);
    // 'ж' is 2 bytes: 90 tasks × 50,000 characters = 9,000,000 bytes, but only 4.5 million characters.
    await insertTasksBulk(
      t.app.deps,
      await actorOf(person),
      tree.id,
      Array.from({ length: 90 }, () => ({ title: 'big', notes: 'ж'.repeat(50_000) })),
    );
    const over = await agent.get(`/api/v1/trees/${tree.id}/export`);
    expect(over.status).toBe(413);
    expect(over.body.error.details[0].text_bytes).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('keeps history only inside the plan window', async () => {
    const person = await makeUser(t.url);
    const tree = await makeTree(person.browser);
    const old = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await t.app.deps.db
      .updateTable('history')
      .set({ at: old(8) })
      .where('tree_id', '=', tree.id)
      .execute();
    await makeProject(person.browser, tree.id);
    const exported = (await person.browser.get(`/api/v1/trees/${tree.id}/export`)).body.history;
    expect(exported.map((h: any) => h.entity)).toEqual(['project']);
    await purgeHistory(t.app.deps);
    const left = await t.app.deps.db.selectFrom('history').select('entity').where('tree_id', '=', tree.id).execute();
    expect(left.map((h) => h.entity)).toEqual(['project']);
    // Grove keeps 365 days, until the plan lapses back to Seed.
    const grove = await makeUser(t.url, t.app, { plan: 'grove' });
    const groveTree = await makeTree(grove.browser);
    await t.app.deps.db
      .updateTable('history')
      .set({ at: old(30) })
      .where('tree_id', '=', groveTree.id)
      .execute();
    await purgeHistory(t.app.deps);
    expect(
      await t.app.deps.db.selectFrom('history').select('id').where('tree_id', '=', groveTree.id).execute(),
    ).toHaveLength(1);
    await setUserPlan(t.app.deps, grove.email, 'grove', old(1));
    await purgeHistory(t.app.deps);
    expect(
      await t.app.deps.db.selectFrom('history').select('id').where('tree_id', '=', groveTree.id).execute(),
    ).toHaveLength(0);
  });
});
