import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { download, upload } from '../helpers/files.js';

describe.each(databases)('assignees, comments, messages and history (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let stranger: Person;
  let tree: { id: string };

  async function join(person: Person, role: 'viewer' | 'editor') {
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role });
    expect(
      (
        await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
          token: inviteToken(invited),
        })
      ).status,
    ).toBe(200);
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    editor = await makeUser(t.url, t.app, { plan: 'sprout' });
    viewer = await makeUser(t.url, t.app);
    stranger = await makeUser(t.url, t.app);
    tree = await makeTree(owner.browser, { name: 'Orchard' });
    await join(editor, 'editor');
    await join(viewer, 'viewer');
  });
  afterAll(async () => t.stop());

  it('assigns the owner and members, filters by assignee, and refuses anyone else', async () => {
    const task = await makeTask(owner.browser, tree.id);
    const other = await makeTask(owner.browser, tree.id);
    const assigned = await editor.browser.put(`/api/v1/tasks/${task.id}/assignees`, {
      user_ids: [viewer.user.id, owner.user.id],
    });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.task.assignee_ids).toEqual([owner.user.id, viewer.user.id].sort());
    expect((await viewer.browser.get(`/api/v1/tasks/${task.id}`)).body.task.assignee_ids).toEqual(
      assigned.body.task.assignee_ids,
    );
    const mine = await viewer.browser.get(`/api/v1/tasks?assignee_id=${viewer.user.id}`);
    expect(mine.body.items.map((x: any) => x.id)).toEqual([task.id]);
    expect(
      (await owner.browser.get(`/api/v1/tasks?tree_id=${tree.id}&assignee_id=${owner.user.id}`)).body.items.map(
        (x: any) => x.id,
      ),
    ).toEqual([task.id]);
    for (const ids of [[stranger.user.id], ['usr_nobody'], [editor.user.id, stranger.user.id]]) {
      const refused = await owner.browser.put(`/api/v1/tasks/${other.id}/assignees`, { user_ids: ids });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
    }
    expect((await owner.browser.get(`/api/v1/tasks/${other.id}`)).body.task.assignee_ids).toEqual([]);
    const byViewer = await viewer.browser.put(`/api/v1/tasks/${other.id}/assignees`, { user_ids: [] });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('forbidden');
    expect((await stranger.browser.put(`/api/v1/tasks/${other.id}/assignees`, { user_ids: [] })).status).toBe(404);
    const cleared = await owner.browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [] });
    expect(cleared.body.task.assignee_ids).toEqual([]);
    expect((await viewer.browser.get(`/api/v1/tasks?assignee_id=${viewer.user.id}`)).body.items).toEqual([]);
  });

  it('lets owners and editors comment, authors edit, and the author or owner delete', async () => {
    const task = await makeTask(owner.browser, tree.id);
    const posted = await editor.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'Ladder is in the shed' });
    expect(posted.status).toBe(201);
    expect(posted.body.comment).toEqual({
      id: expect.stringMatching(/^cmt_/),
      task_id: task.id,
      author_id: editor.user.id,
      body: 'Ladder is in the shed',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const byViewer = await viewer.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'me too' });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('forbidden');
    expect((await stranger.browser.get(`/api/v1/tasks/${task.id}/comments`)).status).toBe(404);
    const listed = await viewer.browser.get(`/api/v1/tasks/${task.id}/comments`);
    expect(listed.body).toEqual({ items: [posted.body.comment], next_cursor: null });
    const id = posted.body.comment.id;
    const byOwner = await owner.browser.patch(`/api/v1/comments/${id}`, { body: 'not mine' });
    expect(byOwner.status).toBe(403);
    expect((await viewer.browser.patch(`/api/v1/comments/${id}`, { body: 'x' })).status).toBe(403);
    expect((await stranger.browser.patch(`/api/v1/comments/${id}`, { body: 'x' })).status).toBe(404);
    expect(
      (await editor.browser.patch(`/api/v1/comments/${id}`, { body: 'Ladder is in the barn' })).body.comment.body,
    ).toBe('Ladder is in the barn');
    for (const body of [{ body: '' }, { body: 'x'.repeat(10_001) }, {}, { body: 'ok', extra: 1 }]) {
      expect((await editor.browser.post(`/api/v1/tasks/${task.id}/comments`, body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect((await viewer.browser.delete(`/api/v1/comments/${id}`)).status).toBe(403);
    expect((await owner.browser.delete(`/api/v1/comments/${id}`)).body).toEqual({ ok: true });
    expect((await editor.browser.get(`/api/v1/tasks/${task.id}/comments`)).body.items).toEqual([]);
  });

  it('pages comments with cursors bound to the task', async () => {
    const task = await makeTask(owner.browser, tree.id);
    for (let i = 0; i < 3; i += 1) await owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: `note ${i}` });
    const first = await owner.browser.get(`/api/v1/tasks/${task.id}/comments?limit=2`);
    expect(first.body.items.map((c: any) => c.body)).toEqual(['note 0', 'note 1']);
    const second = await owner.browser.get(
      `/api/v1/tasks/${task.id}/comments?limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(second.body).toMatchObject({ items: [{ body: 'note 2' }], next_cursor: null });
  });

  it("keeps the tree's messages: members read, owners and editors post", async () => {
    const posted = await editor.browser.post(`/api/v1/trees/${tree.id}/messages`, { body: 'Harvest on Saturday?' });
    expect(posted.status).toBe(201);
    expect(posted.body.message).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      tree_id: tree.id,
      author_id: editor.user.id,
      body: 'Harvest on Saturday?',
    });
    expect((await viewer.browser.post(`/api/v1/trees/${tree.id}/messages`, { body: 'yes' })).status).toBe(403);
    expect((await stranger.browser.post(`/api/v1/trees/${tree.id}/messages`, { body: 'yes' })).status).toBe(404);
    expect((await viewer.browser.get(`/api/v1/trees/${tree.id}/messages`)).body.items.map((m: any) => m.id)).toEqual([
      posted.body.message.id,
    ]);
    const exported = await viewer.browser.get(`/api/v1/trees/${tree.id}/export`);
    expect(exported.body.messages.map((m: any) => m.id)).toEqual([posted.body.message.id]);
  });

  it('records every write with actor and door, newest first, without comment bodies', async () => {
    const own = await makeTree(owner.browser, { name: 'Ledger' });
    const task = await makeTask(owner.browser, own.id, { title: 'First' });
    await owner.browser.patch(`/api/v1/tasks/${task.id}`, { title: 'Second' });
    await owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'secret comment text' });
    const { agent } = await makeToken(owner);
    await agent.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
    const history = await owner.browser.get(`/api/v1/trees/${own.id}/history`);
    expect(history.status).toBe(200);
    const items = history.body.items;
    expect(items.map((h: any) => [h.entity, h.action, h.via])).toEqual([
      ['task', expect.any(String), 'token'],
      ['comment', 'created', 'session'],
      ['task', 'updated', 'session'],
      ['task', 'created', 'session'],
      ['tree', 'created', 'session'],
    ]);
    expect(items[2].changes).toEqual({ title: { from: 'First', to: 'Second' } });
    expect(history.text).not.toContain('secret comment text');
    expect(items.every((h: any) => h.actor_id === owner.user.id && h.tree_id === own.id)).toBe(true);
    const page = await owner.browser.get(`/api/v1/trees/${own.id}/history?limit=2`);
    const next = await owner.browser.get(`/api/v1/trees/${own.id}/history?limit=2&cursor=${page.body.next_cursor}`);
    expect([...page.body.items, ...next.body.items].map((h: any) => h.id)).toEqual(
      items.slice(0, 4).map((h: any) => h.id),
    );
    expect(
      (await owner.browser.get(`/api/v1/trees/${tree.id}/history?limit=2&cursor=${page.body.next_cursor}`)).body.error
        .code,
    ).toBe('invalid_cursor');
    expect((await stranger.browser.get(`/api/v1/trees/${own.id}/history`)).status).toBe(404);
  });

  it("shows members the shared tree's history, and nothing older than the owner's plan window", async () => {
    await t.app.deps.db
      .insertInto('history')
      .values({
        id: 'his_ancient',
        owner_id: owner.user.id,
        tree_id: tree.id,
        at: '2020-01-01T00:00:00.000Z',
        actor_id: owner.user.id,
        via: 'session',
        entity: 'tree',
        entity_id: tree.id,
        action: 'updated',
        changes: '{}',
        change_id: 'chg_ancient',
      })
      .execute();
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page: any = await viewer.browser.get(`/api/v1/trees/${tree.id}/history?limit=50${query}`);
      expect(page.status).toBe(200);
      all.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(all.some((h) => h.entity === 'member')).toBe(true);
    expect(all.some((h) => h.id === 'his_ancient')).toBe(false);
    expect(
      (await owner.browser.get(`/api/v1/trees/${tree.id}/export`)).body.history.some(
        (h: any) => h.id === 'his_ancient',
      ),
    ).toBe(false);
  });

  it('shares attachments by role and records them in the history', async () => {
    const task = await makeTask(owner.browser, tree.id);
    const data = Buffer.from('seed order: 3 apple trees');
    const created = await upload(editor.browser, `/api/v1/tasks/${task.id}/attachments`, [
      { data, name: 'order.txt', type: 'text/plain' },
    ]);
    expect(created.status).toBe(201);
    const id = created.body.attachment.id;
    const refused = await upload(viewer.browser, `/api/v1/tasks/${task.id}/attachments`, [
      { data, name: 'x.txt', type: 'text/plain' },
    ]);
    expect(refused.status).toBe(403);
    const link = await viewer.browser.get(`/api/v1/attachments/${id}`);
    expect(link.status).toBe(200);
    const signed = new URL(link.body.content_url);
    expect((await download(null, `${t.url}${signed.pathname}${signed.search}`)).bytes.equals(data)).toBe(true);
    expect((await stranger.browser.get(`/api/v1/attachments/${id}`)).status).toBe(404);
    expect((await viewer.browser.delete(`/api/v1/attachments/${id}`)).status).toBe(403);
    expect((await editor.browser.delete(`/api/v1/attachments/${id}`)).status).toBe(200);
    const history = (await owner.browser.get(`/api/v1/trees/${tree.id}/history?limit=5`)).body.items;
    expect(history.slice(0, 2).map((h: any) => [h.entity, h.entity_id, h.action, h.actor_id])).toEqual([
      ['attachment', id, 'deleted', editor.user.id],
      ['attachment', id, 'created', editor.user.id],
    ]);
  });
});
