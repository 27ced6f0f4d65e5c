import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { connectMcp } from '../helpers/mcp.js';
import type { Client } from '../helpers/client.js';

const CHANGE = /^chg_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The agent call journal's records, once the one asked for has been written. */
async function journalOf(browser: Client, atLeast: number): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const items = (await browser.get('/api/v1/agent-calls')).body.items as any[];
    if (items.length >= atLeast) return items;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`journal never reached ${atLeast} records`);
}

async function historyOf(client: Client, treeId: string, query = ''): Promise<any[]> {
  const answer = await client.get(`/api/v1/trees/${treeId}/history?limit=200${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.items;
}

// CONTRACT §16.3: every write is a change; its id is on every entry, the answer, MCP results and the journal.
describe.each(databases)('changes (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'sprout' });
  });
  afterAll(async () => t.stop());

  it('answers Change-Id on writes that appended history, and stamps every entry with it', async () => {
    const made = await makeToken(owner, { name: 'Runaway agent' });
    const tree = await makeTree(owner.browser, { name: 'Changes' });
    const created = await made.agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'One' });
    expect(created.status).toBe(201);
    const change = created.headers.get('change-id');
    expect(change).toMatch(CHANGE);
    const entries = await historyOf(owner.browser, tree.id, `&change_id=${change}`);
    expect(entries).toEqual([
      expect.objectContaining({
        entity: 'task',
        entity_id: created.body.task.id,
        action: 'created',
        change_id: change,
        credential_id: made.token.id,
        client: 'Runaway agent',
        reverts: null,
        via: 'token',
      }),
    ]);
    // A browser session's change names no credential and no client.
    const renamed = await owner.browser.patch(`/api/v1/tasks/${created.body.task.id}`, { title: 'Two' });
    const sessionChange = renamed.headers.get('change-id');
    expect(sessionChange).toMatch(CHANGE);
    expect(sessionChange).not.toBe(change);
    expect(await historyOf(owner.browser, tree.id, `&change_id=${sessionChange}`)).toEqual([
      expect.objectContaining({ action: 'updated', credential_id: null, client: null, change_id: sessionChange }),
    ]);
    // A write that changes nothing writes no entry and carries no Change-Id; nor do reads or token writes.
    const same = await owner.browser.patch(`/api/v1/tasks/${created.body.task.id}`, { title: 'Two' });
    expect(same.status).toBe(200);
    expect(same.headers.get('change-id')).toBeNull();
    expect((await owner.browser.get(`/api/v1/tasks/${created.body.task.id}`)).headers.get('change-id')).toBeNull();
    expect((await owner.browser.post('/api/v1/tokens', { name: 'another' })).headers.get('change-id')).toBeNull();
    // A refused write names no change either.
    const refused = await made.agent.patch(`/api/v1/tasks/${created.body.task.id}`, { status: 'nope' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('change-id')).toBeNull();
    // The credential filter: only the token's entries.
    expect((await historyOf(owner.browser, tree.id, `&credential_id=${made.token.id}`)).map((h) => h.id)).toEqual(
      entries.map((h) => h.id),
    );
    expect(await historyOf(owner.browser, tree.id, '&change_id=chg_unknown')).toEqual([]);
  });

  it('pages a filtered history with a cursor bound to the filter', async () => {
    const made = await makeToken(owner, { name: 'pager' });
    const tree = await makeTree(owner.browser, { name: 'Paged' });
    for (const title of ['a', 'b', 'c']) await makeTask(made.agent, tree.id, { title });
    await makeTask(owner.browser, tree.id, { title: 'mine' });
    const first = await owner.browser.get(`/api/v1/trees/${tree.id}/history?limit=2&credential_id=${made.token.id}`);
    expect(first.body.items).toHaveLength(2);
    const next = await owner.browser.get(
      `/api/v1/trees/${tree.id}/history?limit=2&credential_id=${made.token.id}&cursor=${first.body.next_cursor}`,
    );
    expect(next.body.items.map((h: any) => h.changes.title.to)).toEqual(['a']);
    expect(next.body.next_cursor).toBeNull();
    // The cursor belongs to its filter.
    const other = await owner.browser.get(`/api/v1/trees/${tree.id}/history?limit=2&cursor=${first.body.next_cursor}`);
    expect(other.status).toBe(400);
  });

  it('writes one restorable entry per removed record under one change for a cascade delete', async () => {
    const tree = await makeTree(owner.browser, { name: 'Cascade' });
    const top = await makeProject(owner.browser, tree.id, { name: 'Top', description: 'd', color: '#112233' });
    const child = await makeProject(owner.browser, tree.id, { name: 'Child', parent_id: top.id });
    const task = await makeTask(owner.browser, tree.id, {
      title: 'Deep',
      project_id: child.id,
      notes: 'n',
      deadline: '2026-12-31',
    });
    const loose = await makeTask(owner.browser, tree.id, { title: 'Loose' });
    const removed = await owner.browser.delete(`/api/v1/projects/${top.id}?cascade=true`);
    expect(removed.status).toBe(200);
    const change = removed.headers.get('change-id')!;
    const entries = await historyOf(owner.browser, tree.id, `&change_id=${change}`);
    // Newest first: the top project last written, then its child, then the task.
    expect(entries.map((h) => [h.entity, h.entity_id, h.action])).toEqual([
      ['project', top.id, 'deleted'],
      ['project', child.id, 'deleted'],
      ['task', task.id, 'deleted'],
    ]);
    const fields = (h: any) =>
      Object.fromEntries(Object.entries(h.changes).map(([k, v]: [string, any]) => [k, v.from]));
    expect(fields(entries[0])).toEqual(top);
    expect(fields(entries[2])).toEqual(task);
    expect(Object.values(entries[2].changes).every((c: any) => c.to === null)).toBe(true);
    const gone = await owner.browser.delete(`/api/v1/tasks/${loose.id}`);
    const [single] = await historyOf(owner.browser, tree.id, `&change_id=${gone.headers.get('change-id')}`);
    expect(fields(single)).toEqual(loose);
  });

  it('gives MCP create_task and complete_task results the change id, as history and the journal name it', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person, { name: 'MCP agent' });
    const tree = await makeTree(person.browser, { name: 'Journal' });
    const mcp = await connectMcp(t.url, made.value);
    const created = await mcp.client.callTool({
      name: 'create_task',
      arguments: { tree_id: tree.id, title: 'By MCP' },
    });
    const { task, change_id } = created.structuredContent as any;
    expect(change_id).toMatch(CHANGE);
    const done = await mcp.client.callTool({ name: 'complete_task', arguments: { id: task.id } });
    const completed = (done.structuredContent as any).change_id;
    expect(completed).toMatch(CHANGE);
    expect(completed).not.toBe(change_id);
    // Completing it again changes nothing: no change.
    const again = await mcp.client.callTool({ name: 'complete_task', arguments: { id: task.id } });
    expect((again.structuredContent as any).change_id).toBeNull();
    await mcp.client.callTool({ name: 'get_task', arguments: { id: task.id } });
    await mcp.close();
    const rest = await made.agent.patch(`/api/v1/tasks/${task.id}`, { title: 'By REST' });
    const restChange = rest.headers.get('change-id');

    const history = await historyOf(person.browser, tree.id);
    const byChange = (id: string) => history.filter((h) => h.change_id === id).map((h) => h.entity_id);
    expect(byChange(change_id)).toEqual([task.id]);
    expect(byChange(completed)).toEqual([task.id]);
    expect(history.find((h) => h.change_id === change_id)).toMatchObject({
      via: 'mcp',
      credential_id: made.token.id,
      client: 'MCP agent',
    });

    await t.app.deps.journal.flush();
    const calls = await journalOf(person.browser, 6);
    const call = (operation: string) => calls.filter((c) => c.operation === operation).map((c) => c.change_id);
    expect(call('tools/call create_task')).toEqual([change_id]);
    // Newest first: the second completion wrote nothing.
    expect(call('tools/call complete_task')).toEqual([null, completed]);
    expect(call('tools/call get_task')).toEqual([null]);
    expect(call('PATCH /tasks/{id}')).toEqual([restChange]);
    expect(call('POST /trees')).toEqual([]);
    for (const c of calls.filter((c) => c.change_id !== null))
      expect(history.some((h) => h.change_id === c.change_id)).toBe(true);
  });

  it('stamps a browser session change with no credential', async () => {
    const tree = await makeTree(owner.browser, { name: 'Session' });
    const [entry] = await historyOf(owner.browser, tree.id);
    expect(entry).toMatchObject({ entity: 'tree', action: 'created', via: 'session', credential_id: null });
    expect(entry.change_id).toMatch(CHANGE);
  });
});
