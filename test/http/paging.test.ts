import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { encodeCursor } from '../../src/domain/paging.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('paging, updated_since and ETags (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let userId: string;
  let tree: any;
  let ids: string[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    userId = person.user.id;
    agent = (await makeToken(person)).agent;
    tree = await makeTree(agent);
    ids = [];
    for (let i = 0; i < 7; i++) ids.push((await makeTask(agent, tree.id, { title: `task ${i}` })).id);
  });
  afterAll(async () => t.stop());

  async function walk(query: string): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: any = await agent.get(
        `/api/v1/tasks?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      seen.push(...answer.body.items.map((x: any) => x.id));
      cursor = answer.body.next_cursor;
      if (cursor !== null) expect(cursor.length).toBeLessThanOrEqual(1024);
    } while (cursor !== null);
    return seen;
  }

  it('pages in creation order until next_cursor is null', async () => {
    expect(await walk(`tree_id=${tree.id}&limit=3`)).toEqual(ids);
    expect(await walk(`tree_id=${tree.id}&limit=7`)).toEqual(ids);
    const all = await agent.get(`/api/v1/tasks?tree_id=${tree.id}`);
    expect(all.body.next_cursor).toBeNull();
  });

  it('refuses limits outside 1..200', async () => {
    for (const limit of ['0', '201', '-1', 'ten', '1.5']) {
      const answer = await agent.get(`/api/v1/tasks?limit=${limit}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await agent.get('/api/v1/tasks?limit=200')).status).toBe(200);
  });

  it('excludes records inserted after page one', async () => {
    const first = await agent.get(`/api/v1/tasks?tree_id=${tree.id}&limit=4`);
    const late = await makeTask(agent, tree.id, { title: 'late' });
    const second = await agent.get(
      `/api/v1/tasks?tree_id=${tree.id}&limit=4&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.body.items.map((x: any) => x.id)).toEqual(ids.slice(4));
    expect(second.body.next_cursor).toBeNull();
    await agent.delete(`/api/v1/tasks/${late.id}`);
  });

  it('binds the cursor to the endpoint, filters, limit and actor; refuses tampering', async () => {
    const first = await agent.get(`/api/v1/tasks?tree_id=${tree.id}&limit=2`);
    const cursor = encodeURIComponent(first.body.next_cursor);
    const other = await makeTree(agent);
    const misuse = [
      `/api/v1/tasks?tree_id=${tree.id}&limit=3&cursor=${cursor}`,
      `/api/v1/tasks?tree_id=${other.id}&limit=2&cursor=${cursor}`,
      `/api/v1/tasks?tree_id=${tree.id}&limit=2&status=todo&cursor=${cursor}`,
      `/api/v1/projects?limit=2&cursor=${cursor}`,
      `/api/v1/tasks?tree_id=${tree.id}&limit=2&cursor=${cursor.slice(0, -2)}xx`,
      `/api/v1/tasks?tree_id=${tree.id}&limit=2&cursor=garbage`,
    ];
    for (const path of misuse) {
      const answer = await agent.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code).toBe('invalid_cursor');
    }
    const stranger = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    expect((await stranger.get(`/api/v1/tasks?limit=2&cursor=${cursor}`)).body.error.code).toBe('invalid_cursor');
    expect((await agent.get(`/api/v1/tasks?limit=2&cursor=${'a'.repeat(1025)}`)).body.error.code).toBe(
      'validation_failed',
    );
  });

  it('pages trees, projects and search alike, each cursor bound to its own list and filters', async () => {
    async function pages(path: string): Promise<{ ids: string[]; firstCursor: string }> {
      const seen: string[] = [];
      let cursor: string | null = null;
      let firstCursor = '';
      do {
        const answer: any = await agent.get(`${path}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(answer.status, path).toBe(200);
        seen.push(...answer.body.items.map((x: any) => x.id));
        cursor = answer.body.next_cursor;
        if (firstCursor === '' && cursor !== null) firstCursor = encodeURIComponent(cursor);
      } while (cursor !== null);
      return { ids: seen, firstCursor };
    }
    const forest = [await makeTree(agent), await makeTree(agent), await makeTree(agent)];
    const trees = await pages('/api/v1/trees?');
    expect(trees.ids.slice(-3)).toEqual(forest.map((x) => x.id));
    const projectIds = [];
    for (let i = 0; i < 3; i++) projectIds.push((await makeProject(agent, forest[0].id, { name: `p${i}` })).id);
    await makeProject(agent, forest[1].id);
    const projects = await pages(`/api/v1/projects?tree_id=${forest[0].id}`);
    expect(projects.ids).toEqual(projectIds);
    const found = await pages(`/api/v1/search?q=task&tree_id=${tree.id}`);
    expect(found.ids).toEqual(ids);
    for (const path of [
      `/api/v1/projects?tree_id=${forest[1].id}&limit=2&cursor=${projects.firstCursor}`,
      `/api/v1/trees?limit=2&cursor=${projects.firstCursor}`,
      `/api/v1/projects?tree_id=${forest[0].id}&limit=2&cursor=${trees.firstCursor}`,
      `/api/v1/search?q=other&tree_id=${tree.id}&limit=2&cursor=${found.firstCursor}`,
      `/api/v1/tasks?tree_id=${tree.id}&limit=2&cursor=${found.firstCursor}`,
    ]) {
      expect((await agent.get(path)).body.error?.code, path).toBe('invalid_cursor');
    }
  });

  it('expires cursors after 15 minutes', async () => {
    const binding = { actorKey: userId, endpoint: 'tasks', filters: { tree_id: tree.id }, limit: 2 };
    const old = encodeCursor(t.env.config.secret, binding, { last: 0, high: 1_000_000 }, Date.now() - 16 * 60_000);
    const answer = await agent.get(`/api/v1/tasks?tree_id=${tree.id}&limit=2&cursor=${encodeURIComponent(old)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('cursor_expired');
    const fresh = encodeCursor(t.env.config.secret, binding, { last: 0, high: 1_000_000 }, Date.now() - 14 * 60_000);
    expect(
      (await agent.get(`/api/v1/tasks?tree_id=${tree.id}&limit=2&cursor=${encodeURIComponent(fresh)}`)).status,
    ).toBe(200);
  });

  it('treats updated_since as inclusive and requires a zone', async () => {
    const task = (await agent.get(`/api/v1/tasks/${ids[3]}`)).body.task;
    const updated = (await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'touched' })).body.task;
    const since = encodeURIComponent(updated.updated_at);
    const items = (await agent.get(`/api/v1/tasks?tree_id=${tree.id}&updated_since=${since}`)).body.items;
    expect(items.map((x: any) => x.id)).toContain(task.id);
    const offset = encodeURIComponent(updated.updated_at.replace('Z', '+00:00'));
    expect(
      (await agent.get(`/api/v1/tasks?tree_id=${tree.id}&updated_since=${offset}`)).body.items.map((x: any) => x.id),
    ).toContain(task.id);
    const later = new Date(Date.parse(updated.updated_at) + 1).toISOString();
    expect(
      (await agent.get(`/api/v1/tasks?tree_id=${tree.id}&updated_since=${later}`)).body.items.map((x: any) => x.id),
    ).not.toContain(task.id);
    for (const bad of ['2026-11-22T10:00:00', '2026-11-22', 'yesterday']) {
      const answer = await agent.get(`/api/v1/tasks?updated_since=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await agent.get(`/api/v1/trees?updated_since=${since}`)).status).toBe(200);
    expect((await agent.get(`/api/v1/projects?updated_since=${since}`)).status).toBe(200);
  });

  it('revalidates lists and items with ETags after authorization', async () => {
    for (const path of [
      `/api/v1/tasks?tree_id=${tree.id}`,
      `/api/v1/trees/${tree.id}`,
      `/api/v1/tasks/${ids[0]}`,
      '/api/v1/trees',
      '/api/v1/projects',
    ]) {
      const first = await agent.get(path);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const again = await agent.get(path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
    }
    const first = await agent.get(`/api/v1/tasks/${ids[0]}`);
    await agent.patch(`/api/v1/tasks/${ids[0]}`, { notes: 'changed' });
    expect(
      (await agent.get(`/api/v1/tasks/${ids[0]}`, { headers: { 'if-none-match': first.headers.get('etag')! } })).status,
    ).toBe(200);
    const unscoped = (await makeToken(await makeUser(t.url, t.app), { scopes: ['attachments'] })).agent;
    expect((await unscoped.get('/api/v1/trees', { headers: { 'if-none-match': '*' } })).status).toBe(403);
  });
});
