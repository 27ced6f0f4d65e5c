import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/**
 * What search and the MCP fast path keep between requests (statements compiled once per shape,
 * the membership lookup compiled once, a plain 2025 tools/call routed without the SDK's
 * classification) never outlives what it was made from: a foreign id, a membership that ends
 * (so a tree-scoped token's tree), a plan that takes the write scope away, and a revoked token
 * each show on the very next request, each path warmed first with the same request shapes; so
 * does the end of a warm MCP session (DELETE /mcp, revocation), which no other credential may use.
 * MCP calls are sent as the bench sends them (the fast path's plain shape), in both eras.
 */

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const MODERN = '2026-07-28';

describe.each(databases)('caches and shortcuts see every change at the next request (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let member: Person;
  let shared: { id: string };
  let sharedTask: string;
  let ownerOnlyTask: string;
  let memberTask: string;
  let ownTree: { id: string };
  let memberId: string;
  let unscoped: { value: string; token: { id: string } };
  let scoped: { value: string; token: { id: string } };
  let session: string;

  async function search(token: string): Promise<{ status: number; ids: string[] }> {
    const answer = await fetch(`${t.url}/api/v1/search?q=${encodeURIComponent('marigold bed')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { items?: { id: string }[] };
    return { status: answer.status, ids: (body.items ?? []).map((i) => i.id).sort() };
  }

  async function openSession(token: string): Promise<string> {
    const answer = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fresh', version: '1' } },
      }),
    });
    expect(answer.status).toBe(200);
    return answer.headers.get('mcp-session-id')!;
  }

  /** A plain tools/call, as an agent sends it: in the 2025 session, or as a 2026-07-28 request. */
  async function call(
    era: 'legacy' | 'modern',
    token: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> =
      era === 'legacy'
        ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
        : { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name };
    const params =
      era === 'legacy'
        ? { name, arguments: args }
        : {
            name,
            arguments: args,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientInfo': { name: 'fresh', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          };
    const answer = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
    });
    return { status: answer.status, body: await answer.json() };
  }

  /** The CONTRACT §1 code of a tool error, or 'ok'. */
  function outcome(answer: { status: number; body: any }): string {
    if (answer.status !== 200) return `http ${answer.status}`;
    if (answer.body.error !== undefined) return `rpc ${answer.body.error.code}`;
    const result = answer.body.result;
    return result.isError === true ? JSON.parse(result.content[0].text).error.code : 'ok';
  }

  /** The same request three times: the last answer, after whatever it keeps has been made. */
  async function warm<T>(request: () => Promise<T>): Promise<T> {
    await request();
    await request();
    return request();
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    member = await makeUser(t.url, t.app, { plan: 'grove' });
    shared = await makeTree(owner.browser, { name: 'Commons' });
    const ownerOnly = await makeTree(owner.browser, { name: 'Private' });
    const own = await makeTree(member.browser, { name: 'Allotment' });
    ownTree = own;
    sharedTask = (await makeTask(owner.browser, shared.id, { title: 'Weed the marigold bed' })).id;
    ownerOnlyTask = (await makeTask(owner.browser, ownerOnly.id, { title: 'Water the marigold bed' })).id;
    memberTask = (await makeTask(member.browser, own.id, { title: 'Edge the marigold bed' })).id;
    const invited = await owner.browser.post(`/api/v1/trees/${shared.id}/members`, {
      email: member.email,
      role: 'editor',
    });
    memberId = invited.body.member.id;
    await member.browser.post(`/api/v1/invitations/${memberId}/accept`, { token: inviteToken(invited) });
    unscoped = await makeToken(member);
    scoped = await makeToken(member, { tree_ids: [shared.id] });
    session = await openSession(unscoped.value);
  });
  afterAll(async () => t.stop());

  it('answers a foreign id as not found and never lists it, however warm', async () => {
    expect(await warm(() => search(unscoped.value))).toEqual({ status: 200, ids: [sharedTask, memberTask].sort() });
    expect(await warm(() => search(scoped.value))).toEqual({ status: 200, ids: [sharedTask] });
    for (const era of ['legacy', 'modern'] as const) {
      expect(outcome(await warm(() => call(era, unscoped.value, 'get_task', { id: sharedTask }))), era).toBe('ok');
      expect(outcome(await call(era, unscoped.value, 'get_task', { id: ownerOnlyTask })), era).toBe('not_found');
      // The scoped token's session would be another credential's: its 2025 calls need a session of its own.
      if (era === 'modern') {
        expect(outcome(await warm(() => call(era, scoped.value, 'get_task', { id: sharedTask })))).toBe('ok');
        expect(outcome(await call(era, scoped.value, 'get_task', { id: memberTask }))).toBe('not_found');
      }
    }
    const foreign = await fetch(`${t.url}/api/v1/tasks/${ownerOnlyTask}`, {
      headers: { authorization: `Bearer ${unscoped.value}` },
    });
    expect(foreign.status).toBe(404);
  });

  it('drops a tree whose membership ends, from the tree-scoped token too, at the next request', async () => {
    await warm(() => search(scoped.value));
    await warm(() => call('modern', scoped.value, 'get_task', { id: sharedTask }));
    await warm(() => call('legacy', unscoped.value, 'get_task', { id: sharedTask }));
    expect((await owner.browser.delete(`/api/v1/members/${memberId}`)).status).toBeLessThan(300);
    expect(await search(scoped.value)).toEqual({ status: 200, ids: [] });
    expect(await search(unscoped.value)).toEqual({ status: 200, ids: [memberTask] });
    expect(outcome(await call('modern', scoped.value, 'get_task', { id: sharedTask }))).toBe('not_found');
    expect(outcome(await call('legacy', unscoped.value, 'get_task', { id: sharedTask }))).toBe('not_found');
    expect(outcome(await call('modern', unscoped.value, 'get_task', { id: sharedTask }))).toBe('not_found');
  });

  it('ends a warm MCP session at the next call, and never lends it to another credential', async () => {
    // The live sessions of a personal token are kept with its lookup (CredentialCache) on SQLite.
    const own = await makeToken(member);
    const sameUser = await makeToken(member);
    const stranger = await makeToken(owner);
    const inSession = async (token: string, id: string) => {
      const answer = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          authorization: `Bearer ${token}`,
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_task', arguments: { id: memberTask } },
        }),
      });
      return { status: answer.status, body: await answer.json() };
    };
    const mine = await openSession(own.value);
    expect(outcome(await warm(() => inSession(own.value, mine)))).toBe('ok');
    expect(outcome(await inSession(sameUser.value, mine))).toBe('http 404');
    expect(outcome(await inSession(stranger.value, mine))).toBe('http 404');
    expect(outcome(await inSession(own.value, mine))).toBe('ok');
    const ended = await fetch(`${t.url}/mcp`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${own.value}`, 'mcp-session-id': mine },
    });
    expect(ended.status).toBe(200);
    expect(outcome(await inSession(own.value, mine))).toBe('http 404');

    // A revoked token's warm session: refused at the next call, and ended for good.
    const next = await openSession(own.value);
    expect(outcome(await warm(() => inSession(own.value, next)))).toBe('ok');
    expect((await member.browser.delete(`/api/v1/tokens/${own.token.id}`)).status).toBeLessThan(300);
    expect(outcome(await inSession(own.value, next))).toBe('http 401');
    const row = await t.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('credential_id', '=', own.token.id)
      .where('ended_at', 'is', null)
      .execute();
    expect(row).toEqual([]);
  });

  it('hides the write tools at the next call once the plan takes the write scope away', async () => {
    const create = (era: 'legacy' | 'modern') =>
      call(era, unscoped.value, 'create_task', { tree_id: ownTree.id, title: 'Sow the seeds' });
    for (const era of ['legacy', 'modern'] as const) expect(outcome(await warm(() => create(era))), era).toBe('ok');
    await setUserPlan(t.app.deps, member.email, 'seed', null);
    for (const era of ['legacy', 'modern'] as const) {
      const refused = await create(era);
      expect(outcome(refused), era).toBe('rpc -32602');
      expect(JSON.stringify(refused.body.error), era).toContain('create_task');
    }
    const post = await fetch(`${t.url}/api/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${unscoped.value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tree_id: shared.id, title: 'x' }),
    });
    expect(post.status).toBe(403);
    // Reads are still the token's.
    expect(outcome(await call('legacy', unscoped.value, 'get_task', { id: memberTask }))).toBe('ok');
  });

  it('refuses a revoked token at the next request, search and both eras of MCP', async () => {
    await warm(() => search(unscoped.value));
    await warm(() => call('legacy', unscoped.value, 'get_task', { id: memberTask }));
    await warm(() => call('modern', unscoped.value, 'get_task', { id: memberTask }));
    expect((await member.browser.delete(`/api/v1/tokens/${unscoped.token.id}`)).status).toBeLessThan(300);
    expect((await search(unscoped.value)).status).toBe(401);
    expect(outcome(await call('legacy', unscoped.value, 'get_task', { id: memberTask }))).toBe('http 401');
    expect(outcome(await call('modern', unscoped.value, 'get_task', { id: memberTask }))).toBe('http 401');
    // The scoped token of the same person is untouched.
    expect((await search(scoped.value)).status).toBe(200);
  });
});
