import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Answer, Client } from '../helpers/client.js';
import { parseIfMatch } from '../../src/http/if-match.js';

describe('If-Match values', () => {
  it('reads a list of entity-tags, * and nothing else; weak tags are named but never kept', () => {
    expect(parseIfMatch('*')).toBe('*');
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch('"a"')).toEqual(['"a"']);
    expect(parseIfMatch('"a", "b",W/"c" ,  "d,e"')).toEqual(['"a"', '"b"', '"d,e"']);
    expect(parseIfMatch(', "a",,\t"b" ,')).toEqual(['"a"', '"b"']);
    expect(parseIfMatch('""')).toEqual(['""']);
    expect(parseIfMatch('W/"a"')).toEqual([]);
    for (const malformed of [
      '',
      ' ',
      ',',
      'a',
      '"a',
      'a"',
      '"a" "b"',
      '"a"x',
      'W/a',
      'w/"a"',
      '"a";"b"',
      '*, "a"',
      '"a"b"',
    ])
      expect(parseIfMatch(malformed), malformed).toBeNull();
  });
});

/**
 * CONTRACT §16.2: If-Match on PATCH and DELETE of trees, projects and tasks and on PUT
 * /tasks/{id}/assignees. A tag that is not the record's current one for this user is 412
 * precondition_failed with the current version and ETag, and nothing changes; check and write are
 * one step, so of writers holding the same tag exactly one succeeds.
 */
describe.each(databases)('conditional writes (%s)', { timeout: 120_000 }, (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let browser: Client;
  let agent: Client;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    browser = owner.browser;
    agent = (await makeToken(owner)).agent;
  });
  afterAll(async () => t.stop());

  const ifMatch = (value: string) => ({ headers: { 'if-match': value } });
  const etagOf = async (path: string, client: Client = browser): Promise<string> => {
    const answer = await client.get(path);
    expect(answer.status, answer.text).toBe(200);
    return answer.headers.get('etag')!;
  };
  const historyCount = async (treeId: string) =>
    (await browser.get(`/api/v1/trees/${treeId}/history?limit=200`)).body.items.length as number;

  function expectRefused(answer: Answer, currentVersion: number, currentTag: string): void {
    expect(answer.status, answer.text).toBe(412);
    expect(answer.body.error).toMatchObject({
      code: 'precondition_failed',
      message: expect.any(String),
      details: [{ current_version: currentVersion }],
      request_id: expect.any(String),
    });
    expect(answer.headers.get('etag')).toBe(currentTag);
  }

  it('writes a task when If-Match holds its tag, and refuses a stale, weak or malformed one changing nothing', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id, { title: 'first' });
    const path = `/api/v1/tasks/${task.id}`;
    const tag1 = await etagOf(path, agent);
    const written = await agent.patch(path, { title: 'second' }, ifMatch(tag1));
    expect(written.status, written.text).toBe(200);
    expect(written.body.task).toMatchObject({ title: 'second', version: 2 });
    const tag2 = written.headers.get('etag')!;
    expect(tag2).toBe(await etagOf(path, agent));
    // The browser session of the same user holds the same tag.
    expect(await etagOf(path, browser)).toBe(tag2);

    const entries = await historyCount(tree.id);
    for (const value of [tag1, `W/${tag2}`, tag2.slice(1, -1), `${tag2}x`, '', '"a" "b"', `"other", W/${tag2}`]) {
      expectRefused(await agent.patch(path, { title: 'lost' }, ifMatch(value)), 2, tag2);
      expectRefused(await agent.put(`${path}/assignees`, { user_ids: [owner.user.id] }, ifMatch(value)), 2, tag2);
      expectRefused(await agent.delete(path, ifMatch(value)), 2, tag2);
    }
    const after = await agent.get(path);
    expect(after.body.task).toMatchObject({ title: 'second', version: 2, assignee_ids: [] });
    expect(after.headers.get('etag')).toBe(tag2);
    expect(await historyCount(tree.id)).toBe(entries);

    const listed = await agent.patch(path, { title: 'third' }, ifMatch(`"other", W/"x", ${tag2}`));
    expect(listed.status).toBe(200);
    const tag3 = listed.headers.get('etag')!;
    const assigned = await agent.put(`${path}/assignees`, { user_ids: [owner.user.id] }, ifMatch(tag3));
    expect(assigned.status).toBe(200);
    expect(assigned.body.task).toMatchObject({ assignee_ids: [owner.user.id], version: 4 });
    const star = await agent.patch(path, { title: 'fourth' }, ifMatch('*'));
    expect(star.body.task.version).toBe(5);
    // A no-op write with a matching tag answers 200 and keeps the tag.
    const same = await agent.patch(path, { title: 'fourth' }, ifMatch(star.headers.get('etag')!));
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe(star.headers.get('etag'));
    expect((await agent.delete(path, ifMatch(star.headers.get('etag')!))).status).toBe(200);
    expect((await agent.get(path)).status).toBe(404);
    // Without If-Match a write behaves as before.
    const other = await makeTask(agent, tree.id);
    expect((await agent.patch(`/api/v1/tasks/${other.id}`, { title: 'x' })).status).toBe(200);
    expect((await agent.delete(`/api/v1/tasks/${other.id}`)).status).toBe(200);
  });

  it("compares a project's tag, and a tree's snapshot tag, which moves with anything in the tree", async () => {
    const tree = await makeTree(browser);
    const project = await makeProject(browser, tree.id);
    const projectPath = `/api/v1/projects/${project.id}`;
    const treePath = `/api/v1/trees/${tree.id}`;
    const projectTag = await etagOf(projectPath);
    const treeTag = await etagOf(treePath);

    const renamed = await browser.patch(projectPath, { name: 'Rows' }, ifMatch(projectTag));
    expect(renamed.status).toBe(200);
    expectRefused(
      await browser.patch(projectPath, { name: 'lost' }, ifMatch(projectTag)),
      2,
      await etagOf(projectPath),
    );
    expectRefused(await browser.delete(projectPath, ifMatch(projectTag)), 2, await etagOf(projectPath));
    expect((await browser.get(projectPath)).body.project.name).toBe('Rows');

    // The project changed, so the snapshot did: the tree's own version is still 1.
    const treeNow = await etagOf(treePath);
    expect(treeNow).not.toBe(treeTag);
    expectRefused(await browser.patch(treePath, { name: 'lost' }, ifMatch(treeTag)), 1, treeNow);
    expectRefused(await browser.delete(treePath, ifMatch(treeTag)), 1, treeNow);
    expect((await browser.get(treePath)).body.tree.name).toBe('Garden');
    const treeWritten = await browser.patch(treePath, { name: 'Orchard' }, ifMatch(treeNow));
    expect(treeWritten.status).toBe(200);
    expect(treeWritten.body.tree.version).toBe(2);
    expect(treeWritten.headers.get('etag')).toBe(await etagOf(treePath));
    // Archiving a task takes it out of the snapshot: a new tag.
    const task = await makeTask(browser, tree.id);
    const withTask = await etagOf(treePath);
    await browser.patch(`/api/v1/tasks/${task.id}`, { status: 'archived' });
    expect(await etagOf(treePath)).not.toBe(withTask);

    const emptied = await browser.delete(`${projectPath}?cascade=true`, ifMatch(await etagOf(projectPath)));
    expect(emptied.status).toBe(200);
    expect((await browser.delete(treePath, ifMatch(await etagOf(treePath)))).status).toBe(200);
    expect((await browser.get(treePath)).status).toBe(404);
  });

  it('checks validation, existence and role before the precondition, and the precondition before conflicts', async () => {
    const tree = await makeTree(browser);
    const parent = await makeProject(browser, tree.id);
    const child = await makeProject(browser, tree.id, { parent_id: parent.id });
    const task = await makeTask(browser, tree.id);
    const stale = '"v00000000000000000000000000000000"';
    const viewer = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await browser.post(`/api/v1/trees/${tree.id}/members`, { email: viewer.email, role: 'viewer' });
    await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });

    const taskPath = `/api/v1/tasks/${task.id}`;
    expect((await browser.patch(taskPath, { title: '' }, ifMatch(stale))).status).toBe(400);
    expect((await browser.patch(taskPath, { nope: 1 }, ifMatch(stale))).status).toBe(400);
    for (const path of [taskPath, `/api/v1/projects/${parent.id}`, `/api/v1/trees/${tree.id}`]) {
      const viewed = await viewer.browser.patch(path, { title: 'x', name: 'x' }, ifMatch(stale));
      expect([viewed.status, path]).toEqual([400, path]);
    }
    const writes: [Client, string, () => Promise<Answer>][] = [];
    for (const [client, who] of [
      [viewer.browser, 'viewer'],
      [stranger.browser, 'stranger'],
    ] as const) {
      writes.push(
        [client, `${who} task patch`, () => client.patch(taskPath, { title: 'x' }, ifMatch(stale))],
        [client, `${who} task delete`, () => client.delete(taskPath, ifMatch(stale))],
        [client, `${who} assignees`, () => client.put(`${taskPath}/assignees`, { user_ids: [] }, ifMatch(stale))],
        [
          client,
          `${who} project patch`,
          () => client.patch(`/api/v1/projects/${parent.id}`, { name: 'x' }, ifMatch(stale)),
        ],
        [client, `${who} project delete`, () => client.delete(`/api/v1/projects/${child.id}`, ifMatch(stale))],
        [client, `${who} tree patch`, () => client.patch(`/api/v1/trees/${tree.id}`, { name: 'x' }, ifMatch(stale))],
        [client, `${who} tree delete`, () => client.delete(`/api/v1/trees/${tree.id}`, ifMatch(stale))],
      );
    }
    for (const [client, what, send] of writes) {
      const answer = await send();
      expect(answer.status, what).toBe(client === viewer.browser ? 403 : 404);
      expect(answer.body.error.code, what).toBe(client === viewer.browser ? 'forbidden' : 'not_found');
      expect(answer.headers.get('etag'), what).toBeNull();
    }
    expect((await browser.patch(`/api/v1/tasks/tsk_unknown`, { title: 'x' }, ifMatch(stale))).status).toBe(404);

    // A cycle is a conflict only once the precondition holds.
    const parentPath = `/api/v1/projects/${parent.id}`;
    expect((await browser.patch(parentPath, { parent_id: child.id }, ifMatch(stale))).status).toBe(412);
    const cycle = await browser.patch(parentPath, { parent_id: child.id }, ifMatch(await etagOf(parentPath)));
    expect(cycle.status).toBe(409);
    expect((await browser.delete(parentPath, ifMatch(stale))).status).toBe(412);
    expect((await browser.delete(parentPath, ifMatch(await etagOf(parentPath)))).status).toBe(409);
  });

  describe('races: of writers holding the same tag exactly one writes', () => {
    const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort();

    it('20 PATCHes of one task', async () => {
      const tree = await makeTree(agent);
      const task = await makeTask(agent, tree.id);
      const path = `/api/v1/tasks/${task.id}`;
      const tag = await etagOf(path, agent);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => agent.patch(path, { title: `writer ${i}` }, ifMatch(tag))),
      );
      expect(statuses(answers)).toEqual([200, ...Array<number>(19).fill(412)]);
      const winner = answers.find((a) => a.status === 200)!;
      const now = await agent.get(path);
      expect(now.body.task).toEqual(winner.body.task);
      expect(now.body.task.version).toBe(2);
      for (const lost of answers.filter((a) => a.status === 412)) {
        expect(lost.body.error.details).toEqual([{ current_version: 2 }]);
        expect(lost.headers.get('etag')).toBe(now.headers.get('etag'));
      }
    });

    it('20 assignments of one task', async () => {
      const member = await makeUser(t.url, t.app, { plan: 'sprout' });
      const tree = await makeTree(browser);
      const invited = await browser.post(`/api/v1/trees/${tree.id}/members`, { email: member.email, role: 'editor' });
      await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
        token: inviteToken(invited),
      });
      const task = await makeTask(browser, tree.id);
      const path = `/api/v1/tasks/${task.id}`;
      const tag = await etagOf(path, agent);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          agent.put(`${path}/assignees`, { user_ids: i % 2 === 0 ? [owner.user.id] : [member.user.id] }, ifMatch(tag)),
        ),
      );
      expect(statuses(answers)).toEqual([200, ...Array<number>(19).fill(412)]);
      expect((await agent.get(path)).body.task.version).toBe(2);
    });

    it('20 DELETEs of one task, and PATCHes racing DELETEs', async () => {
      const tree = await makeTree(agent);
      const task = await makeTask(agent, tree.id);
      const path = `/api/v1/tasks/${task.id}`;
      const tag = await etagOf(path, agent);
      const answers = await Promise.all(Array.from({ length: 20 }, () => agent.delete(path, ifMatch(tag))));
      // Existence is checked before the precondition: the task the winner deleted is not found.
      expect(statuses(answers)).toEqual([200, ...Array<number>(19).fill(404)]);

      const raced = await makeTask(agent, tree.id);
      const racedPath = `/api/v1/tasks/${raced.id}`;
      const racedTag = await etagOf(racedPath, agent);
      const mixed = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? agent.delete(racedPath, ifMatch(racedTag))
            : agent.patch(racedPath, { title: `w${i}` }, ifMatch(racedTag)),
        ),
      );
      const won = mixed.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      const lost = mixed.filter((a) => a.status !== 200).map((a) => a.status);
      // A PATCH that won leaves a task whose tag no one held; a DELETE that won leaves none.
      expect(new Set(lost)).toEqual(new Set([won[0]!.body.ok === true ? 404 : 412]));
      expect((await agent.get(racedPath)).status).toBe(won[0]!.body.ok === true ? 404 : 200);
    });

    it('20 PATCHes of one project, and of one tree', async () => {
      const tree = await makeTree(browser);
      const project = await makeProject(browser, tree.id);
      for (const path of [`/api/v1/projects/${project.id}`, `/api/v1/trees/${tree.id}`]) {
        const tag = await etagOf(path);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => browser.patch(path, { name: `writer ${i}` }, ifMatch(tag))),
        );
        expect([path, statuses(answers)]).toEqual([path, [200, ...Array<number>(19).fill(412)]]);
        const winner = answers.find((a) => a.status === 200)!;
        const key = path.includes('/trees/') ? 'tree' : 'project';
        const now = await browser.get(path);
        expect(now.body[key].name).toBe(winner.body[key].name);
        expect(now.body[key].version).toBe(2);
        expect(winner.headers.get('etag')).toBe(now.headers.get('etag'));
      }
    });
  });
});
