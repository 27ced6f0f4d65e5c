import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Answer, Client } from '../helpers/client.js';

/** A record as a revert must bring it back: every field but the ones a write always moves. */
function fieldsOf(record: Record<string, unknown>) {
  const { updated_at: _u, version: _v, ...rest } = record;
  return rest;
}

/** Every tree's record, projects and tasks (archived included, from the export), field by field. */
async function stateOf(client: Client, treeIds: string[]) {
  const out: Record<string, unknown> = {};
  for (const id of treeIds) {
    const exported = await client.get(`/api/v1/trees/${id}/export`);
    expect(exported.status, exported.text).toBe(200);
    const { tree, projects, tasks } = exported.body;
    const sorted = (list: any[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1)).map(fieldsOf);
    out[id] = { tree: fieldsOf(tree), projects: sorted(projects), tasks: sorted(tasks) };
  }
  return out;
}

function changeOf(answer: Answer): string {
  expect(answer.status, answer.text).toBeLessThan(300);
  const change = answer.headers.get('change-id');
  expect(change).toMatch(/^chg_/);
  return change!;
}

function importCsv(client: Client, treeId: string, csv: string) {
  return client.request('POST', `/api/v1/trees/${treeId}/import`, { raw: csv, contentType: 'text/csv' });
}

// CONTRACT §16.3: any change can be reverted, and a revert reverted (redo), in one transaction.
describe.each(databases)('reverting changes (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let agent: Client;
  let agentToken: { id: string };

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(owner, { name: 'Agent' });
    agent = made.agent;
    agentToken = made.token;
  });
  afterAll(async () => t.stop());

  /**
   * The agent's `act` is one change; reverting it brings every record of `trees` back field by
   * field, and reverting the revert brings the change back.
   */
  async function roundTrip(trees: string[], act: () => Promise<Answer>) {
    const before = await stateOf(owner.browser, trees);
    const change = changeOf(await act());
    const after = await stateOf(owner.browser, trees);
    expect(after).not.toEqual(before);
    const revert = await owner.browser.post(`/api/v1/changes/${change}/revert`);
    expect(revert.status, revert.text).toBe(200);
    expect(revert.body).toMatchObject({ change_id: expect.stringMatching(/^chg_/), skipped: [] });
    expect(revert.body.reverted).toBeGreaterThan(0);
    expect(revert.headers.get('change-id')).toBe(revert.body.change_id);
    expect(await stateOf(owner.browser, trees)).toEqual(before);
    // Its entries use the ordinary actions and name the change they undid.
    const entries = (
      await owner.browser.get(`/api/v1/trees/${trees[0]}/history?change_id=${revert.body.change_id}&limit=200`)
    ).body.items;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e: any) => e.reverts === change)).toBe(true);
    // Reverted already: 409 conflict, nothing changes.
    expect((await owner.browser.post(`/api/v1/changes/${change}/revert`)).body.error.code).toBe('conflict');
    const redo = await owner.browser.post(`/api/v1/changes/${revert.body.change_id}/revert`);
    expect(redo.status, redo.text).toBe(200);
    expect(await stateOf(owner.browser, trees)).toEqual(after);
    return { change, revert: revert.body, redo: redo.body };
  }

  it('reverts and redoes an update, raising the version by one each time', async () => {
    const tree = await makeTree(owner.browser, { name: 'Update' });
    const task = await makeTask(owner.browser, tree.id, { title: 'Before', notes: 'n', deadline: '2026-12-31' });
    await roundTrip([tree.id], () =>
      agent.patch(`/api/v1/tasks/${task.id}`, {
        title: 'After',
        notes: 'changed',
        deadline: '2027-01-02T10:00:00.5Z',
        color: '#123456',
        position: 77,
      }),
    );
    // Changed, reverted, redone: three changes of the task, three steps.
    expect((await owner.browser.get(`/api/v1/tasks/${task.id}`)).body.task.version).toBe(task.version + 3);
  });

  it('reverts and redoes a status change, completion time included', async () => {
    const tree = await makeTree(owner.browser, { name: 'Status' });
    const open = await makeTask(owner.browser, tree.id, { title: 'Open' });
    await roundTrip([tree.id], () => agent.patch(`/api/v1/tasks/${open.id}`, { status: 'done' }));
    const done = await makeTask(owner.browser, tree.id, { title: 'Done', status: 'done' });
    await new Promise((r) => setTimeout(r, 5));
    await roundTrip([tree.id], () => agent.patch(`/api/v1/tasks/${done.id}`, { status: 'todo' }));
  });

  it('reverts and redoes an assignment', async () => {
    const tree = await makeTree(owner.browser, { name: 'Assign' });
    const task = await makeTask(owner.browser, tree.id);
    await roundTrip([tree.id], () => agent.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] }));
  });

  it('reverts and redoes moves: a project with its descendants to another tree, a task out of its project', async () => {
    const from = await makeTree(owner.browser, { name: 'From' });
    const to = await makeTree(owner.browser, { name: 'To' });
    const project = await makeProject(owner.browser, from.id, { name: 'Moving' });
    const child = await makeProject(owner.browser, from.id, { name: 'Child', parent_id: project.id });
    await makeTask(owner.browser, from.id, { title: 'In project', project_id: project.id });
    await makeTask(owner.browser, from.id, { title: 'In child', project_id: child.id });
    await roundTrip([from.id, to.id], () => agent.patch(`/api/v1/projects/${project.id}`, { tree_id: to.id }));
    const holder = await makeProject(owner.browser, from.id, { name: 'Holder' });
    const task = await makeTask(owner.browser, from.id, { title: 'Held', project_id: holder.id });
    await roundTrip([from.id, to.id], () => agent.patch(`/api/v1/tasks/${task.id}`, { tree_id: to.id }));
    // Within one tree: a project under another parent, with what it holds.
    const branch = await makeProject(owner.browser, from.id, { name: 'Branch' });
    await makeTask(owner.browser, from.id, { title: 'On branch', project_id: branch.id });
    await roundTrip([from.id], () =>
      agent.patch(`/api/v1/projects/${branch.id}`, { parent_id: holder.id, position: 3 }),
    );
  });

  it('puts back the assignees a move to another tree dropped, for a task and for a project’s tasks', async () => {
    const shared = await makeTree(owner.browser, { name: 'Shared' });
    const mine = await makeTree(owner.browser, { name: 'Mine alone' });
    const helper = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await owner.browser.post(`/api/v1/trees/${shared.id}/members`, {
      email: helper.email,
      role: 'editor',
    });
    await helper.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const both = [owner.user.id, helper.user.id];
    const task = await makeTask(owner.browser, shared.id, { title: 'Ours' });
    expect((await owner.browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: both })).status).toBe(200);
    await roundTrip([shared.id, mine.id], () => agent.patch(`/api/v1/tasks/${task.id}`, { tree_id: mine.id }));
    const project = await makeProject(owner.browser, shared.id, { name: 'Joint' });
    const inProject = await makeTask(owner.browser, shared.id, { title: 'Joint task', project_id: project.id });
    await owner.browser.put(`/api/v1/tasks/${inProject.id}/assignees`, { user_ids: both });
    await roundTrip([shared.id, mine.id], () => agent.patch(`/api/v1/projects/${project.id}`, { tree_id: mine.id }));
    // Moved, back, moved again: one step of version each.
    expect((await owner.browser.get(`/api/v1/tasks/${inProject.id}`)).body.task.version).toBe(inProject.version + 4);
  });

  it('reverts and redoes a create and a delete (the record comes back with its id)', async () => {
    const tree = await makeTree(owner.browser, { name: 'Create' });
    await roundTrip([tree.id], () => agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'New' }));
    await roundTrip([tree.id], () => agent.post('/api/v1/projects', { tree_id: tree.id, name: 'New project' }));
    const task = await makeTask(owner.browser, tree.id, { title: 'Doomed', notes: 'kept', status: 'done' });
    await owner.browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] });
    const { revert } = await roundTrip([tree.id], () => agent.delete(`/api/v1/tasks/${task.id}`));
    expect(revert.reverted).toBe(1);
  });

  it('reverts and redoes a cascade delete, projects before their tasks', async () => {
    const tree = await makeTree(owner.browser, { name: 'Cascade' });
    const top = await makeProject(owner.browser, tree.id, { name: 'Top' });
    const mid = await makeProject(owner.browser, tree.id, { name: 'Mid', parent_id: top.id });
    const low = await makeProject(owner.browser, tree.id, { name: 'Low', parent_id: mid.id });
    for (const p of [top, mid, low])
      await makeTask(owner.browser, tree.id, { title: `in ${p.name}`, project_id: p.id });
    const { revert } = await roundTrip([tree.id], () => agent.delete(`/api/v1/projects/${top.id}?cascade=true`));
    expect(revert.reverted).toBe(6);
  });

  it('reverts and redoes a CSV import', async () => {
    const tree = await makeTree(owner.browser, { name: 'Import' });
    await makeProject(owner.browser, tree.id, { name: 'Existing' });
    const { revert } = await roundTrip([tree.id], () =>
      importCsv(agent, tree.id, 'title,project,status\nOne,Existing/New,done\nTwo,Other,\nThree,,\n'),
    );
    expect(revert.reverted).toBe(5);
  });

  it('reverts and redoes a tree rename', async () => {
    const tree = await makeTree(owner.browser, { name: 'Old name', style: 'lsystem' });
    await roundTrip([tree.id], () => agent.patch(`/api/v1/trees/${tree.id}`, { name: 'New name', style: 'tidy-fan' }));
  });

  it('refuses a revert when a record was changed later, names the later change, and forces only its own fields', async () => {
    const tree = await makeTree(owner.browser, { name: 'Conflict' });
    const task = await makeTask(owner.browser, tree.id, { title: 'Original', notes: 'original notes' });
    const change = changeOf(await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Agent', notes: 'agent notes' }));
    const later = changeOf(await owner.browser.patch(`/api/v1/tasks/${task.id}`, { color: '#abcdef' }));
    const before = await stateOf(owner.browser, [tree.id]);
    const refused = await owner.browser.post(`/api/v1/changes/${change}/revert`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('revert_conflict');
    expect(refused.body.error.details).toEqual([{ entity: 'task', entity_id: task.id, change_id: later }]);
    expect(refused.headers.get('change-id')).toBeNull();
    expect(await stateOf(owner.browser, [tree.id])).toEqual(before);
    const forced = await owner.browser.post(`/api/v1/changes/${change}/revert?force=true`);
    expect(forced.status, forced.text).toBe(200);
    expect((await owner.browser.get(`/api/v1/tasks/${task.id}`)).body.task).toMatchObject({
      title: 'Original',
      notes: 'original notes',
      color: '#abcdef',
    });
  });

  it('refuses to remove a created record that something later hangs on', async () => {
    const tree = await makeTree(owner.browser, { name: 'Hanging' });
    const created = await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'Agent project' });
    const change = changeOf(created);
    const task = await owner.browser.post('/api/v1/tasks', {
      tree_id: tree.id,
      title: 'Mine',
      project_id: created.body.project.id,
    });
    const refused = await owner.browser.post(`/api/v1/changes/${change}/revert`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'revert_conflict',
      details: [{ entity: 'task', entity_id: task.body.task.id, change_id: task.headers.get('change-id') }],
    });
    // Forced, the project stays with what hangs on it: left as it is, and said so.
    const forced = await owner.browser.post(`/api/v1/changes/${change}/revert?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.body.skipped).toEqual([{ entity: 'project', entity_id: created.body.project.id, action: 'created' }]);
    expect((await owner.browser.get(`/api/v1/projects/${created.body.project.id}`)).status).toBe(200);
  });

  it('skips comments, writes nothing when it undoes nothing, and answers 404 for unknown changes', async () => {
    const tree = await makeTree(owner.browser, { name: 'Skips' });
    const task = await makeTask(owner.browser, tree.id);
    const comment = await agent.post(`/api/v1/tasks/${task.id}/comments`, { body: 'agent says' });
    const change = changeOf(comment);
    const expected = {
      change_id: null,
      reverted: 0,
      skipped: [{ entity: 'comment', entity_id: comment.body.comment.id, action: 'created' }],
    };
    for (let i = 0; i < 2; i++) {
      const answer = await owner.browser.post(`/api/v1/changes/${change}/revert`, {});
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual(expected);
      expect(answer.headers.get('change-id')).toBeNull();
    }
    expect((await owner.browser.post('/api/v1/changes/chg_00000000000000000000000000/revert')).status).toBe(404);
    expect((await owner.browser.post(`/api/v1/changes/${change}/revert`, { extra: 1 })).status).toBe(400);
  });

  it('applies plan limits to what a revert restores', async () => {
    const seed = await makeUser(t.url, t.app);
    const tree = await makeTree(seed.browser, { name: 'Limits' });
    const first = await makeProject(seed.browser, tree.id, { name: 'p0' });
    const deleted = changeOf(await seed.browser.delete(`/api/v1/projects/${first.id}`));
    for (let i = 1; i <= 50; i++) await makeProject(seed.browser, tree.id, { name: `p${i}` });
    const before = await stateOf(seed.browser, [tree.id]);
    const refused = await seed.browser.post(`/api/v1/changes/${deleted}/revert`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'plan_limit_reached', details: [{ limit: 'projects_per_tree' }] });
    expect(await stateOf(seed.browser, [tree.id])).toEqual(before);
  });

  it('lets owners and editors revert, refuses viewers (403), strangers and other trees’ tokens (404), read-only tokens (403)', async () => {
    const tree = await makeTree(owner.browser, { name: 'Rights' });
    const other = await makeTree(owner.browser, { name: 'Elsewhere' });
    const editor = await makeUser(t.url, t.app, { plan: 'sprout' });
    const viewer = await makeUser(t.url, t.app, { plan: 'sprout' });
    const stranger = await makeUser(t.url, t.app, { plan: 'sprout' });
    for (const [person, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role });
      const accepted = await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
        token: inviteToken(invited),
      });
      expect(accepted.status).toBe(200);
    }
    const task = await makeTask(owner.browser, tree.id, { title: 'Shared' });
    const change = changeOf(await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Agent' }));
    const scoped = (await makeToken(owner, { tree_ids: [other.id] })).agent;
    const readOnly = (await makeToken(owner, { scopes: ['read'] })).agent;
    const path = `/api/v1/changes/${change}/revert`;
    expect((await viewer.browser.post(path)).body.error.code).toBe('forbidden');
    expect((await stranger.browser.post(path)).status).toBe(404);
    expect((await scoped.post(path)).status).toBe(404);
    const refusedScope = await readOnly.post(path);
    expect(refusedScope.status).toBe(403);
    expect(refusedScope.body.error.code).toBe('insufficient_scope');
    expect((await owner.browser.get(`/api/v1/tasks/${task.id}`)).body.task.title).toBe('Agent');
    const byEditor = await editor.browser.post(path);
    expect(byEditor.status, byEditor.text).toBe(200);
    expect((await owner.browser.get(`/api/v1/tasks/${task.id}`)).body.task.title).toBe('Shared');
    // The owner (the agent's own token included) may undo the editor's revert.
    const redo = await agent.post(`/api/v1/changes/${byEditor.body.change_id}/revert`);
    expect(redo.status, redo.text).toBe(200);
    // A tree's own fields are the owner's: an editor may not revert a rename.
    const rename = changeOf(await agent.patch(`/api/v1/trees/${tree.id}`, { name: 'Renamed' }));
    expect((await editor.browser.post(`/api/v1/changes/${rename}/revert`)).body.error.code).toBe('forbidden');
    expect(
      (
        await viewer.browser.post(`/api/v1/trees/${tree.id}/revert`, {
          credential_id: agentToken.id,
          since: '2020-01-01T00:00:00Z',
        })
      ).body.error.code,
    ).toBe('forbidden');
    expect(
      (
        await stranger.browser.post(`/api/v1/trees/${tree.id}/revert`, {
          credential_id: agentToken.id,
          since: '2020-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(404);
  });

  it('never loses a person’s edit made while a revert runs', async () => {
    const tree = await makeTree(owner.browser, { name: 'Race' });
    for (let round = 0; round < 8; round++) {
      const task = await makeTask(owner.browser, tree.id, { title: 'Start' });
      const change = changeOf(await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'Agent' }));
      const [revert, edit] = await Promise.all([
        owner.browser.post(`/api/v1/changes/${change}/revert`),
        owner.browser.patch(`/api/v1/tasks/${task.id}`, { title: `Person ${round}` }),
      ]);
      expect(edit.status).toBe(200);
      expect([200, 409]).toContain(revert.status);
      if (revert.status === 409) expect(revert.body.error.code).toBe('revert_conflict');
      // Either the revert saw the edit and refused, or the edit came after it: the edit stands.
      expect((await owner.browser.get(`/api/v1/tasks/${task.id}`)).body.task.title).toBe(`Person ${round}`);
    }
  });

  it("reverts a credential's changes in a tree since a moment, newest first, in one change", async () => {
    const tree = await makeTree(owner.browser, { name: 'Tree revert' });
    const keep = await makeTask(owner.browser, tree.id, { title: 'Mine' });
    const edited = await makeTask(owner.browser, tree.id, { title: 'Edited by agent' });
    const early = changeOf(await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Before since' }));
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const before = await stateOf(owner.browser, [tree.id]);
    const changes = [
      changeOf(await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Agent one' })),
      changeOf(await agent.patch(`/api/v1/tasks/${edited.id}`, { title: 'Agent title', status: 'done' })),
      changeOf(await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'Agent project' })),
    ];
    // A revert the agent made of its own change cancels out with it.
    const own = changeOf(await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'Undone by itself' }));
    expect((await agent.post(`/api/v1/changes/${own}/revert`)).status).toBe(200);
    // Someone else's work on other records stays.
    await owner.browser.patch(`/api/v1/tasks/${keep.id}`, { title: 'Mine, edited' });
    const body = { credential_id: agentToken.id, since };
    expect(
      (await owner.browser.post(`/api/v1/trees/${tree.id}/revert`, { ...body, since: '2026-11-27T10:00:00' })).status,
    ).toBe(400);
    const answer = await owner.browser.post(`/api/v1/trees/${tree.id}/revert`, body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ reverted: 3, skipped: [], changes: [...changes].reverse() });
    expect(answer.body.change_id).toMatch(/^chg_/);
    const now = (await stateOf(owner.browser, [tree.id])) as any;
    const expected = structuredClone(before) as any;
    expected[tree.id].tasks.find((x: any) => x.id === keep.id).title = 'Mine, edited';
    expect(now).toEqual(expected);
    expect(now[tree.id].tasks.some((x: any) => x.title === 'Before since')).toBe(true);
    expect(early).toMatch(/^chg_/);
    // Nothing left to undo: 200, nothing written.
    const again = await owner.browser.post(`/api/v1/trees/${tree.id}/revert`, body);
    expect(again.body).toEqual({ change_id: null, reverted: 0, skipped: [], changes: [] });
    // A later change by anyone else on a record the credential touched is a conflict.
    const late = changeOf(await agent.patch(`/api/v1/tasks/${keep.id}`, { notes: 'agent' }));
    const person = changeOf(await owner.browser.patch(`/api/v1/tasks/${keep.id}`, { notes: 'person' }));
    const refused = await owner.browser.post(`/api/v1/trees/${tree.id}/revert`, body);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([{ entity: 'task', entity_id: keep.id, change_id: person }]);
    expect(late).not.toBe(person);
  });
});
