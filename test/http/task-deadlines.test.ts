import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, toolErrorOf } from '../helpers/mcp.js';

/**
 * `deadline_after` / `deadline_before` (CONTRACT §18) for two people who see the same tasks from
 * the two ends of the day: Alice in Pacific/Kiritimati (UTC+14) owns the tree, Bob in
 * Pacific/Pago_Pago (UTC-11) is its editor. The 1st of December is, in UTC,
 * 2026-11-30T10:00Z to 2026-12-01T10:00Z for Alice and 2026-12-01T11:00Z to 2026-12-02T11:00Z for Bob.
 */
const DEADLINES: Record<string, string | null> = {
  A: '2026-12-01',
  B: '2026-11-30T09:59:59Z', // Alice: 30 Nov 23:59:59
  C: '2026-11-30T10:00:00Z', // Alice: 1 Dec 00:00
  D: '2026-12-01T09:59:59.999999Z', // Alice: 1 Dec 23:59:59.999999
  E: '2026-12-01T10:00:00Z', // Alice: 2 Dec 00:00
  F: null,
  G: '2026-12-02',
  H: '2026-12-01T11:00:00Z', // Alice: 2 Dec 01:00; Bob: 1 Dec 00:00
};

describe.each(databases)('deadline filters on GET /tasks and list_tasks (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let bob: Person;
  let treeId: string;
  const ids: Record<string, string> = {};

  async function titles(person: Person, query: string): Promise<string[]> {
    const answer = await person.browser.get(`/api/v1/tasks?tree_id=${treeId}&${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.items.map((task: { title: string }) => task.title).sort();
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'grove' });
    bob = await makeUser(t.url, t.app, { plan: 'grove' });
    for (const [person, timezone] of [
      [alice, 'Pacific/Kiritimati'],
      [bob, 'Pacific/Pago_Pago'],
    ] as const) {
      const changed = await person.browser.patch('/api/v1/auth/profile', { timezone });
      expect(changed.status, changed.text).toBe(200);
    }
    const tree = await makeTree(alice.browser);
    treeId = tree.id;
    for (const [title, deadline] of Object.entries(DEADLINES)) {
      ids[title] = (await makeTask(alice.browser, treeId, { title, deadline })).id;
    }
    const invited = await alice.browser.post(`/api/v1/trees/${treeId}/members`, { email: bob.email, role: 'editor' });
    expect(invited.status, invited.text).toBe(201);
    const accepted = await bob.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
      token: inviteToken(invited),
    });
    expect(accepted.status, accepted.text).toBe(200);
    for (const title of ['A', 'C']) {
      const assigned = await alice.browser.put(`/api/v1/tasks/${ids[title]}/assignees`, { user_ids: [bob.user.id] });
      expect(assigned.status, assigned.text).toBe(200);
    }
  });
  afterAll(async () => t.stop());

  it('reads a date bound as that whole day in the person’s own time zone, and a date deadline too', async () => {
    expect(await titles(alice, 'deadline_after=2026-12-01&deadline_before=2026-12-01')).toEqual(['A', 'C', 'D']);
    expect(await titles(alice, 'deadline_after=2026-12-01')).toEqual(['A', 'C', 'D', 'E', 'G', 'H']);
    expect(await titles(alice, 'deadline_before=2026-12-01')).toEqual(['A', 'B', 'C', 'D']);
    expect(await titles(bob, 'deadline_after=2026-12-01&deadline_before=2026-12-01')).toEqual(['A', 'H']);
    expect(await titles(bob, 'deadline_after=2026-12-02')).toEqual(['G']);
    expect(await titles(bob, 'deadline_before=2026-11-30')).toEqual(['B', 'C', 'D', 'E']);
  });

  it('compares a date-time bound with a zone to the instant, inclusive, to the microsecond', async () => {
    // A date deadline D passes `after` X when D ends at or after X, `before` X when it starts at or before X.
    expect(await titles(alice, 'deadline_after=2026-11-30T10:00:00Z')).toEqual(['A', 'C', 'D', 'E', 'G', 'H']);
    expect(await titles(alice, `deadline_after=${encodeURIComponent('2026-12-01T00:00:00+14:00')}`)).toEqual([
      'A',
      'C',
      'D',
      'E',
      'G',
      'H',
    ]);
    expect(await titles(alice, `deadline_after=${encodeURIComponent('2026-12-01T10:00:00.000001+00:00')}`)).toEqual([
      'G',
      'H',
    ]);
    expect(await titles(alice, 'deadline_after=2026-12-01T09:59:59.999999Z')).toEqual(['A', 'D', 'E', 'G', 'H']);
    expect(await titles(alice, `deadline_before=${encodeURIComponent('2026-11-30T10:00:00+00:00')}`)).toEqual([
      'A',
      'B',
      'C',
    ]);
    expect(await titles(alice, 'deadline_before=2026-11-30T09:59:59.5Z')).toEqual(['B']);
    expect(await titles(bob, `deadline_before=${encodeURIComponent('2026-11-30T23:59:59-11:00')}`)).toEqual([
      'B',
      'C',
      'D',
      'E',
    ]);
    expect(await titles(alice, 'deadline_after=2026-12-02&deadline_before=2026-12-01')).toEqual([]);
  });

  it('combines with assignee_id and status, and leaves out tasks without a deadline', async () => {
    expect(await titles(bob, `deadline_after=2026-12-01&assignee_id=${bob.user.id}`)).toEqual(['A']);
    expect(await titles(bob, `deadline_before=2026-12-01&assignee_id=${bob.user.id}`)).toEqual(['A', 'C']);
    expect(await titles(alice, `deadline_after=2026-12-01&assignee_id=${alice.user.id}`)).toEqual([]);
    const done = await alice.browser.patch(`/api/v1/tasks/${ids.G}`, { status: 'done' });
    expect(done.status, done.text).toBe(200);
    expect(await titles(alice, 'deadline_after=2026-12-01&status=todo')).toEqual(['A', 'C', 'D', 'E', 'H']);
    expect(await titles(alice, 'deadline_after=2026-12-01&status=done')).toEqual(['G']);
    expect(await titles(alice, 'deadline_after=1900-01-01')).not.toContain('F');
  });

  it('binds the bounds and the time zone into the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const answer = await alice.browser.get(`/api/v1/tasks?deadline_after=2026-12-01&limit=2${after}`);
      expect(answer.status, answer.text).toBe(200);
      seen.push(...answer.body.items.map((task: { title: string }) => task.title));
      cursor = answer.body.next_cursor;
      if (pages++ === 0) {
        const other = await alice.browser.get(
          `/api/v1/tasks?deadline_after=2026-12-02&limit=2&cursor=${encodeURIComponent(cursor!)}`,
        );
        expect(other.status).toBe(400);
        expect(other.body.error.code).toBe('invalid_cursor');
        const dropped = await alice.browser.get(`/api/v1/tasks?limit=2&cursor=${encodeURIComponent(cursor!)}`);
        expect(dropped.body.error.code).toBe('invalid_cursor');
      }
    } while (cursor !== null);
    // Creation order, every page inside the bound.
    expect(seen).toEqual(['A', 'C', 'D', 'E', 'G', 'H']);
    expect(pages).toBe(3);
  });

  it('refuses a bound that is not a date or a date-time with a zone', async () => {
    for (const [query, path] of [
      ['deadline_after=2026-02-30', '/deadline_after'],
      ['deadline_before=tomorrow', '/deadline_before'],
      ['deadline_before=2026-12-01T10:00:00', '/deadline_before'],
      ['deadline_after=2026-12-01T25:00:00Z', '/deadline_after'],
    ]) {
      const answer = await alice.browser.get(`/api/v1/tasks?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.error.details[0].path).toBe(path);
    }
  });

  it('answers the same through MCP list_tasks', async () => {
    const { value } = await makeToken(alice, { scopes: ['read'] });
    const mcp = await connectMcp(t.url, value);
    try {
      const page = await mcp.client.callTool({
        name: 'list_tasks',
        arguments: { tree_id: treeId, deadline_after: '2026-12-01', deadline_before: '2026-12-01' },
      });
      expect((page.structuredContent as { items: { title: string }[] }).items.map((task) => task.title).sort()).toEqual(
        ['A', 'C', 'D'],
      );
      const bad = await mcp.client.callTool({ name: 'list_tasks', arguments: { deadline_after: '1 December' } });
      expect(toolErrorOf(bad)).toMatchObject({ code: 'validation_failed' });
    } finally {
      await mcp.close();
    }
  });
});
