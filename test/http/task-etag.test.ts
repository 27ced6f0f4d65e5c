import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/**
 * GET /tasks/{id} takes its ETag from the row's version and the reader, and answers a matching
 * If-None-Match with 304 before building the body. Whatever changes the answer must change the
 * tag, and nothing may be answered 304 that the reader could not read.
 */
describe.each(databases)('versioned task ETags (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let agent: Client;
  let tokenId: string;
  let bearer: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(owner);
    agent = made.agent;
    tokenId = made.token.id;
    bearer = `Bearer ${made.value}`;
  });
  afterAll(async () => t.stop());

  const read = (client: Client, id: string, etag?: string) =>
    client.get(`/api/v1/tasks/${id}`, etag === undefined ? {} : { headers: { 'if-none-match': etag } });

  it('answers a matching If-None-Match with a bare 304 carrying the same tag', async () => {
    const task = await makeTask(agent, (await makeTree(agent)).id, { title: 'Water the roses' });
    const first = await read(agent, task.id);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"v[A-Za-z0-9_-]{32}"$/);
    const again = await fetch(`${t.url}/api/v1/tasks/${task.id}`, {
      headers: { authorization: bearer, 'if-none-match': `"other", ${etag}` },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.headers.get('content-type')).toBeNull();
    expect((await read(agent, task.id)).headers.get('etag')).toBe(etag);
  });

  it('changes the tag with every write to the task, even writes within one millisecond that restore the body', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id, { title: 'a' });
    const seen = new Set([(await read(agent, task.id)).headers.get('etag')!]);
    const writes: [string, () => Promise<unknown>][] = [
      ['title', () => agent.patch(`/api/v1/tasks/${task.id}`, { title: 'b' })],
      ['title back', () => agent.patch(`/api/v1/tasks/${task.id}`, { title: 'a' })],
      ['assignees', () => agent.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [owner.user.id] })],
      [
        'project',
        async () => agent.patch(`/api/v1/tasks/${task.id}`, { project_id: (await makeProject(agent, tree.id)).id }),
      ],
      ['tree', async () => agent.patch(`/api/v1/tasks/${task.id}`, { tree_id: (await makeTree(agent)).id })],
    ];
    for (const [what, write] of writes) {
      const before = [...seen].at(-1)!;
      await write();
      const answer = await read(agent, task.id, before);
      expect(answer.status, what).toBe(200);
      const etag = answer.headers.get('etag')!;
      expect(seen.has(etag), what).toBe(false);
      seen.add(etag);
    }
  });

  it('changes the tag of every task a moved project carries', async () => {
    const tree = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const task = await makeTask(agent, tree.id, { project_id: project.id });
    const etag = (await read(agent, task.id)).headers.get('etag')!;
    await agent.patch(`/api/v1/projects/${project.id}`, { tree_id: (await makeTree(agent)).id });
    expect((await read(agent, task.id, etag)).status).toBe(200);
  });

  it('gives each reader a tag of their own and checks access before any 304', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const etag = (await read(agent, task.id)).headers.get('etag')!;
    const viewer = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const viewerRead = await read(viewer.browser, task.id, etag);
    expect(viewerRead.status).toBe(200);
    expect(viewerRead.headers.get('etag')).not.toBe(etag);
    expect((await read(viewer.browser, task.id, viewerRead.headers.get('etag')!)).status).toBe(304);
    await owner.browser.delete(`/api/v1/members/${invited.body.member.id}`);
    expect((await read(viewer.browser, task.id, viewerRead.headers.get('etag')!)).status).toBe(404);

    const stranger = (await makeToken(await makeUser(t.url, t.app, { plan: 'grove' }))).agent;
    expect((await read(stranger, task.id, etag)).status).toBe(404);
    expect((await fetch(`${t.url}/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag } })).status).toBe(401);
  });

  it("answers 404, not 304, to a member once the owner's plan no longer shares, and 304 again once it does", async () => {
    const sharer = await makeUser(t.url, t.app, { plan: 'grove' });
    const tree = await makeTree(sharer.browser);
    const task = await makeTask(sharer.browser, tree.id);
    const viewer = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await sharer.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const etag = (await read(viewer.browser, task.id)).headers.get('etag')!;
    expect((await read(viewer.browser, task.id, etag)).status).toBe(304);
    await setUserPlan(t.app.deps, sharer.email, 'sprout', null);
    expect((await read(viewer.browser, task.id, etag)).status).toBe(404);
    await setUserPlan(t.app.deps, sharer.email, 'grove', null);
    expect((await read(viewer.browser, task.id, etag)).status).toBe(304);
  });

  it('answers a stale tag with the task and its new tag, and a tag of another task with that task', async () => {
    const tree = await makeTree(agent);
    const [a, b] = [await makeTask(agent, tree.id, { title: 'a' }), await makeTask(agent, tree.id, { title: 'b' })];
    const tagOfA = (await read(agent, a.id)).headers.get('etag')!;
    await agent.patch(`/api/v1/tasks/${a.id}`, { title: 'a2' });
    const fresh = await read(agent, a.id, tagOfA);
    expect(fresh.status).toBe(200);
    expect(fresh.body.task.title).toBe('a2');
    expect(fresh.headers.get('etag')).not.toBe(tagOfA);
    expect((await read(agent, a.id, fresh.headers.get('etag')!)).status).toBe(304);
    const other = await read(agent, b.id, fresh.headers.get('etag')!);
    expect(other.status).toBe(200);
    expect(other.body.task.title).toBe('b');
  });

  it('answers 401, not 304, the moment the token is revoked', async () => {
    const task = await makeTask(agent, (await makeTree(agent)).id);
    const etag = (await read(agent, task.id)).headers.get('etag')!;
    expect((await read(agent, task.id, etag)).status).toBe(304);
    await owner.browser.delete(`/api/v1/tokens/${tokenId}`);
    expect((await read(agent, task.id, etag)).status).toBe(401);
  });
});
