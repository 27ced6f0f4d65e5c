import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { Client } from '../helpers/client.js';
import { upload } from '../helpers/files.js';
import { connect } from '../helpers/oauth.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/**
 * CONTRACT §16.1 over REST: a credential limited to chosen trees reads every other tree, and all
 * in it, exactly as a foreign id (same status, same body bytes), and lists and search leave them
 * out; POST /trees is 403 insufficient_scope for it. The matrix runs every endpoint that takes a
 * tree, project, task, comment, attachment or membership id against every kind of caller.
 */

/** An answer's status and body with its request id blanked, so two answers compare byte for byte. */
function bytes(answer: { status: number; text: string }): string {
  return `${answer.status} ${answer.text.replace(/"request_id":"[^"]+"/, '"request_id":""')}`;
}

/** An id of this kind that names nothing: what a foreign id reads as. */
function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(13).toString('hex').slice(0, 26).toUpperCase()}`;
}

type Kind = 'tre' | 'prj' | 'tsk' | 'cmt' | 'att' | 'mbr';
interface Endpoint {
  name: string;
  kind: Kind;
  /** A read: callers who reach the record get 200. */
  read: boolean;
  /** What a foreign id gets, when it is not 404: a transcription without a speech provider is 503 first. */
  foreign?: number;
  call: (client: Client, id: string) => Promise<{ status: number; text: string }>;
}

describe.each(databases)('tree-scoped credentials over REST (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let stranger: Person;
  /** A: the orchard, the trees the scoped-to-A credentials see; B: the vegetables, the target. */
  const ids = {} as Record<'treeA' | 'treeB' | 'projectA' | 'projectB' | 'taskA' | 'taskB', string> &
    Record<'commentB' | 'attachmentB' | 'memberB', string>;
  const callers = {} as Record<
    'session' | 'full' | 'tokenA' | 'tokenB' | 'oauthA' | 'oauthB' | 'editor' | 'viewer' | 'stranger',
    Client
  >;
  /** The callers whose credential or membership does not reach tree B. */
  const excluded = ['tokenA', 'oauthA', 'stranger'] as const;
  /** The callers who reach tree B. */
  const included = ['session', 'full', 'tokenB', 'oauthB', 'editor', 'viewer'] as const;

  const target = (kind: Kind): string =>
    ({
      tre: ids.treeB,
      prj: ids.projectB,
      tsk: ids.taskB,
      cmt: ids.commentB,
      att: ids.attachmentB,
      mbr: ids.memberB,
    })[kind];

  async function uploadTo(client: Client, taskId: string) {
    const answer = await upload(client, `/api/v1/tasks/${taskId}/attachments`, [
      { data: Buffer.from('seed list'), name: 'seeds.txt', type: 'text/plain' },
    ]);
    return { status: answer.status, text: JSON.stringify(answer.body), body: answer.body };
  }

  const endpoints: Endpoint[] = [
    // Trees and what hangs off them.
    { name: 'GET /trees/{id}', kind: 'tre', read: true, call: (c, id) => c.get(`/api/v1/trees/${id}`) },
    { name: 'GET /trees/{id}/export', kind: 'tre', read: true, call: (c, id) => c.get(`/api/v1/trees/${id}/export`) },
    { name: 'GET /trees/{id}/history', kind: 'tre', read: true, call: (c, id) => c.get(`/api/v1/trees/${id}/history`) },
    {
      name: 'GET /trees/{id}/messages',
      kind: 'tre',
      read: true,
      call: (c, id) => c.get(`/api/v1/trees/${id}/messages`),
    },
    { name: 'GET /trees/{id}/members', kind: 'tre', read: true, call: (c, id) => c.get(`/api/v1/trees/${id}/members`) },
    { name: 'GET /tasks?tree_id', kind: 'tre', read: true, call: (c, id) => c.get(`/api/v1/tasks?tree_id=${id}`) },
    {
      name: 'GET /projects?tree_id',
      kind: 'tre',
      read: true,
      call: (c, id) => c.get(`/api/v1/projects?tree_id=${id}`),
    },
    {
      name: 'GET /search?tree_id',
      kind: 'tre',
      read: true,
      call: (c, id) => c.get(`/api/v1/search?q=leeks&tree_id=${id}`),
    },
    {
      name: 'PATCH /trees/{id}',
      kind: 'tre',
      read: false,
      call: (c, id) => c.patch(`/api/v1/trees/${id}`, { name: 'x' }),
    },
    { name: 'DELETE /trees/{id}', kind: 'tre', read: false, call: (c, id) => c.delete(`/api/v1/trees/${id}`) },
    {
      name: 'POST /trees/{id}/messages',
      kind: 'tre',
      read: false,
      call: (c, id) => c.post(`/api/v1/trees/${id}/messages`, { body: 'hello' }),
    },
    {
      name: 'POST /trees/{id}/members',
      kind: 'tre',
      read: false,
      call: (c, id) => c.post(`/api/v1/trees/${id}/members`, { email: 'friend@example.test', role: 'viewer' }),
    },
    {
      name: 'POST /trees/{id}/import',
      kind: 'tre',
      read: false,
      call: (c, id) =>
        c.request('POST', `/api/v1/trees/${id}/import`, { raw: 'title\nSow\n', contentType: 'text/csv' }),
    },
    {
      name: 'POST /projects {tree_id}',
      kind: 'tre',
      read: false,
      call: (c, id) => c.post('/api/v1/projects', { tree_id: id, name: 'x' }),
    },
    {
      name: 'POST /tasks {tree_id}',
      kind: 'tre',
      read: false,
      call: (c, id) => c.post('/api/v1/tasks', { tree_id: id, title: 'x' }),
    },
    {
      name: 'PATCH /tasks/{A} {tree_id} (move)',
      kind: 'tre',
      read: false,
      call: (c, id) => c.patch(`/api/v1/tasks/${ids.taskA}`, { tree_id: id }),
    },
    {
      name: 'PATCH /projects/{A} {tree_id} (move)',
      kind: 'tre',
      read: false,
      call: (c, id) => c.patch(`/api/v1/projects/${ids.projectA}`, { tree_id: id }),
    },
    // Projects.
    { name: 'GET /projects/{id}', kind: 'prj', read: true, call: (c, id) => c.get(`/api/v1/projects/${id}`) },
    {
      name: 'GET /tasks?project_id',
      kind: 'prj',
      read: true,
      call: (c, id) => c.get(`/api/v1/tasks?project_id=${id}`),
    },
    {
      name: 'PATCH /projects/{id}',
      kind: 'prj',
      read: false,
      call: (c, id) => c.patch(`/api/v1/projects/${id}`, { name: 'x' }),
    },
    { name: 'DELETE /projects/{id}', kind: 'prj', read: false, call: (c, id) => c.delete(`/api/v1/projects/${id}`) },
    {
      name: 'POST /tasks {project_id}',
      kind: 'prj',
      read: false,
      call: (c, id) => c.post('/api/v1/tasks', { tree_id: ids.treeA, project_id: id, title: 'x' }),
    },
    {
      name: 'POST /projects {parent_id}',
      kind: 'prj',
      read: false,
      call: (c, id) => c.post('/api/v1/projects', { tree_id: ids.treeA, parent_id: id, name: 'x' }),
    },
    {
      name: 'PATCH /tasks/{A} {project_id} (move)',
      kind: 'prj',
      read: false,
      call: (c, id) => c.patch(`/api/v1/tasks/${ids.taskA}`, { project_id: id }),
    },
    // Tasks and what hangs off them.
    { name: 'GET /tasks/{id}', kind: 'tsk', read: true, call: (c, id) => c.get(`/api/v1/tasks/${id}`) },
    {
      name: 'GET /tasks/{id} If-None-Match',
      kind: 'tsk',
      read: false,
      call: (c, id) => c.get(`/api/v1/tasks/${id}`, { headers: { 'if-none-match': '"v1"' } }),
    },
    {
      name: 'GET /tasks/{id}/comments',
      kind: 'tsk',
      read: true,
      call: (c, id) => c.get(`/api/v1/tasks/${id}/comments`),
    },
    {
      name: 'GET /tasks/{id}/attachments',
      kind: 'tsk',
      read: true,
      call: (c, id) => c.get(`/api/v1/tasks/${id}/attachments`),
    },
    {
      name: 'GET /tasks/{id}/transcriptions',
      kind: 'tsk',
      read: true,
      call: (c, id) => c.get(`/api/v1/tasks/${id}/transcriptions`),
    },
    {
      name: 'PATCH /tasks/{id}',
      kind: 'tsk',
      read: false,
      call: (c, id) => c.patch(`/api/v1/tasks/${id}`, { title: 'x' }),
    },
    { name: 'DELETE /tasks/{id}', kind: 'tsk', read: false, call: (c, id) => c.delete(`/api/v1/tasks/${id}`) },
    {
      name: 'PUT /tasks/{id}/assignees',
      kind: 'tsk',
      read: false,
      call: (c, id) => c.put(`/api/v1/tasks/${id}/assignees`, { user_ids: [] }),
    },
    {
      name: 'POST /tasks/{id}/comments',
      kind: 'tsk',
      read: false,
      call: (c, id) => c.post(`/api/v1/tasks/${id}/comments`, { body: 'hi' }),
    },
    { name: 'POST /tasks/{id}/attachments', kind: 'tsk', read: false, call: (c, id) => uploadTo(c, id) },
    {
      name: 'POST /tasks/{id}/transcriptions',
      kind: 'tsk',
      read: false,
      foreign: 503,
      call: (c, id) => c.post(`/api/v1/tasks/${id}/transcriptions`, { attachment_id: ids.attachmentB }),
    },
    // Comments, attachments, memberships.
    {
      name: 'PATCH /comments/{id}',
      kind: 'cmt',
      read: false,
      call: (c, id) => c.patch(`/api/v1/comments/${id}`, { body: 'x' }),
    },
    { name: 'DELETE /comments/{id}', kind: 'cmt', read: false, call: (c, id) => c.delete(`/api/v1/comments/${id}`) },
    { name: 'GET /attachments/{id}', kind: 'att', read: true, call: (c, id) => c.get(`/api/v1/attachments/${id}`) },
    {
      name: 'GET /attachments/{id}/content',
      kind: 'att',
      read: false,
      call: (c, id) => c.get(`/api/v1/attachments/${id}/content`),
    },
    {
      name: 'DELETE /attachments/{id}',
      kind: 'att',
      read: false,
      call: (c, id) => c.delete(`/api/v1/attachments/${id}`),
    },
    {
      name: 'PATCH /members/{id}',
      kind: 'mbr',
      read: false,
      call: (c, id) => c.patch(`/api/v1/members/${id}`, { role: 'viewer' }),
    },
    { name: 'DELETE /members/{id}', kind: 'mbr', read: false, call: (c, id) => c.delete(`/api/v1/members/${id}`) },
  ];

  async function member(role: 'editor' | 'viewer'): Promise<{ person: Person; memberId: string }> {
    const person = await makeUser(t.url, t.app, { plan: 'sprout', verified: true });
    const invited = await owner.browser.post(`/api/v1/trees/${ids.treeB}/members`, { email: person.email, role });
    expect(invited.status, invited.text).toBe(201);
    expect((await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(200);
    return { person, memberId: invited.body.member.id as string };
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    ids.treeA = (await makeTree(owner.browser, { name: 'Orchard' })).id;
    ids.treeB = (await makeTree(owner.browser, { name: 'Vegetables' })).id;
    ids.projectA = (await makeProject(owner.browser, ids.treeA, { name: 'Pears' })).id;
    ids.projectB = (await makeProject(owner.browser, ids.treeB, { name: 'Beds' })).id;
    ids.taskA = (await makeTask(owner.browser, ids.treeA, { title: 'Prune the pears, then the leeks' })).id;
    ids.taskB = (await makeTask(owner.browser, ids.treeB, { title: 'Plant the leeks', project_id: ids.projectB })).id;
    const comment = await owner.browser.post(`/api/v1/tasks/${ids.taskB}/comments`, { body: 'Deep rows' });
    expect(comment.status, comment.text).toBe(201);
    ids.commentB = comment.body.comment.id;
    expect((await owner.browser.post(`/api/v1/trees/${ids.treeB}/messages`, { body: 'Rain tomorrow' })).status).toBe(
      201,
    );
    const attachment = await uploadTo(owner.browser, ids.taskB);
    expect(attachment.status, attachment.text).toBe(201);
    ids.attachmentB = attachment.body.attachment.id;
    const edit = await member('editor');
    editor = edit.person;
    ids.memberB = edit.memberId;
    viewer = (await member('viewer')).person;
    stranger = await makeUser(t.url, t.app, { plan: 'sprout' });
    await makeTree(stranger.browser, { name: 'Elsewhere' });

    const api = `${t.url}/api/v1`;
    const bearer = (value: string) => new Client(t.url).withBearer(value);
    Object.assign(callers, {
      session: owner.browser,
      full: (await makeToken(owner)).agent,
      tokenA: (await makeToken(owner, { tree_ids: [ids.treeA] })).agent,
      tokenB: (await makeToken(owner, { tree_ids: [ids.treeB] })).agent,
      oauthA: bearer((await connect(t.url, owner.browser, api, { trees: [ids.treeA] })).tokens.access_token),
      oauthB: bearer((await connect(t.url, owner.browser, api, { trees: [ids.treeB] })).tokens.access_token),
      editor: editor.browser,
      viewer: viewer.browser,
      stranger: stranger.browser,
    });
  });
  afterAll(async () => t.stop());

  it('answers every endpoint, for a caller whose trees leave the record out, exactly as for a foreign id', async () => {
    for (const endpoint of endpoints) {
      for (const who of excluded) {
        const client = callers[who];
        const real = await endpoint.call(client, target(endpoint.kind));
        const foreign = await endpoint.call(client, randomId(endpoint.kind));
        expect(bytes(real), `${endpoint.name} as ${who}`).toBe(bytes(foreign));
        expect(real.status, `${endpoint.name} as ${who}`).toBe(endpoint.foreign ?? 404);
      }
    }
    // Nothing changed on the way: B and everything in it are as they were.
    const snapshot = await owner.browser.get(`/api/v1/trees/${ids.treeB}`);
    expect(snapshot.body.tree.name).toBe('Vegetables');
    expect(snapshot.body.tasks.map((task: any) => task.title)).toEqual(['Plant the leeks']);
  });

  it('lets every caller who reaches the record read it', async () => {
    for (const endpoint of endpoints.filter((e) => e.read)) {
      for (const who of included) {
        const answer = await endpoint.call(callers[who], target(endpoint.kind));
        expect(answer.status, `${endpoint.name} as ${who}: ${answer.text}`).toBe(200);
      }
    }
  });

  it('leaves the trees outside the credential out of every list and search', async () => {
    const listed = async (client: Client) => ({
      trees: (await client.get('/api/v1/trees')).body.items.map((x: any) => x.id),
      projects: (await client.get('/api/v1/projects')).body.items.map((x: any) => x.id),
      tasks: (await client.get('/api/v1/tasks')).body.items.map((x: any) => x.id),
      search: (await client.get('/api/v1/search?q=leeks')).body.items.map((x: any) => x.id),
    });
    const all = {
      trees: [ids.treeA, ids.treeB],
      projects: [ids.projectA, ids.projectB],
      tasks: [ids.taskA, ids.taskB],
      search: expect.arrayContaining([ids.taskA, ids.taskB]),
    };
    expect(await listed(callers.session)).toEqual(all);
    expect(await listed(callers.full)).toEqual(all);
    for (const who of ['tokenA', 'oauthA'] as const) {
      expect(await listed(callers[who]), who).toEqual({
        trees: [ids.treeA],
        projects: [ids.projectA],
        tasks: [ids.taskA],
        search: [ids.taskA],
      });
    }
    for (const who of ['tokenB', 'oauthB'] as const) {
      expect(await listed(callers[who]), who).toEqual({
        trees: [ids.treeB],
        projects: [ids.projectB],
        tasks: [ids.taskB],
        search: [ids.taskB],
      });
    }
  });

  it('lets a credential scoped to a tree write in it, and in no other', async () => {
    for (const who of ['tokenB', 'oauthB'] as const) {
      const created = await callers[who].post('/api/v1/tasks', { tree_id: ids.treeB, title: `Hoe (${who})` });
      expect(created.status, created.text).toBe(201);
      const other = await callers[who].post('/api/v1/tasks', { tree_id: ids.treeA, title: 'no' });
      expect(other.status).toBe(404);
      // Moving a task of B to A (outside the list) is 404, and the task stays.
      const moved = await callers[who].patch(`/api/v1/tasks/${created.body.task.id}`, { tree_id: ids.treeA });
      expect(bytes(moved)).toBe(
        bytes(await callers[who].patch(`/api/v1/tasks/${created.body.task.id}`, { tree_id: randomId('tre') })),
      );
      expect((await owner.browser.get(`/api/v1/tasks/${created.body.task.id}`)).body.task.tree_id).toBe(ids.treeB);
      expect((await owner.browser.delete(`/api/v1/tasks/${created.body.task.id}`)).status).toBe(200);
    }
  });

  it('refuses POST /trees to a scoped credential with 403 insufficient_scope, before the plan', async () => {
    for (const who of ['tokenA', 'oauthA'] as const) {
      const answer = await callers[who].post('/api/v1/trees', { name: 'New' });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
      expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    }
    const full = await callers.full.post('/api/v1/trees', { name: 'New' });
    expect(full.status).toBe(201);
    expect((await owner.browser.delete(`/api/v1/trees/${full.body.tree.id}`)).status).toBe(200);
    // Scope comes before the plan (CONTRACT §12): a scoped write token whose owner fell back to Seed.
    const fallen = await makeUser(t.url, t.app, { plan: 'sprout' });
    const theirs = (await makeTree(fallen.browser)).id;
    const { agent } = await makeToken(fallen, { tree_ids: [theirs] });
    await setUserPlan(t.app.deps, fallen.email, 'seed', null);
    expect((await agent.post('/api/v1/trees', { name: 'New' })).body.error.code).toBe('insufficient_scope');
    expect((await agent.post('/api/v1/tasks', { tree_id: theirs, title: 'x' })).body.error.code).toBe('plan_read_only');
  });

  it('keeps a scoped token scoped when its lookup is served from the credential cache', async () => {
    const { agent } = await makeToken(owner, { tree_ids: [ids.treeA] });
    // Back to back: the second and third requests find the token in the last second's lookups.
    for (let i = 0; i < 3; i++) {
      expect((await agent.get(`/api/v1/tasks/${ids.taskA}`)).status).toBe(200);
      expect((await agent.get(`/api/v1/tasks/${ids.taskB}`)).status).toBe(404);
    }
  });
});

describe.each(databases)('creating a tree-scoped personal token (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let own: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    own = (await makeTree(owner.browser, { name: 'Mine' })).id;
  });
  afterAll(async () => t.stop());

  const count = async () => (await owner.browser.get('/api/v1/tokens')).body.items.length as number;

  it('keeps tree_ids on the token (null when omitted or null) and shows them in the list', async () => {
    const scoped = await owner.browser.post('/api/v1/tokens', { name: 'scoped', tree_ids: [own] });
    expect(scoped.status, scoped.text).toBe(201);
    expect(scoped.body.token.tree_ids).toEqual([own]);
    const omitted = await owner.browser.post('/api/v1/tokens', { name: 'all' });
    expect(omitted.body.token.tree_ids).toBeNull();
    const nulled = await owner.browser.post('/api/v1/tokens', { name: 'all too', tree_ids: null });
    expect(nulled.body.token.tree_ids).toBeNull();
    const listed = (await owner.browser.get('/api/v1/tokens')).body.items;
    expect(listed.find((x: any) => x.id === scoped.body.token.id).tree_ids).toEqual([own]);
    expect(listed.find((x: any) => x.id === omitted.body.token.id).tree_ids).toBeNull();
  });

  it('is 404 not_found for a tree the user cannot see, and creates nothing', async () => {
    const stranger = await makeUser(t.url, t.app, { plan: 'grove' });
    const theirs = (await makeTree(stranger.browser, { name: 'Theirs' })).id;
    const before = await count();
    for (const treeIds of [[theirs], [own, theirs], [randomId('tre')]]) {
      const answer = await owner.browser.post('/api/v1/tokens', { name: 'nope', tree_ids: treeIds });
      expect(answer.status, JSON.stringify(treeIds)).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect(await count()).toBe(before);
  });

  it('accepts a tree shared with the user by an active membership, and not a pending one', async () => {
    const friend = await makeUser(t.url, t.app, { plan: 'sprout', verified: true });
    const invited = await owner.browser.post(`/api/v1/trees/${own}/members`, { email: friend.email, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect((await friend.browser.post('/api/v1/tokens', { name: 'x', tree_ids: [own] })).status).toBe(404);
    expect((await friend.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(200);
    const created = await friend.browser.post('/api/v1/tokens', { name: 'x', tree_ids: [own] });
    expect(created.status, created.text).toBe(201);
    const agent = friend.browser.withBearer(created.body.value);
    expect((await agent.get(`/api/v1/trees/${own}`)).status).toBe(200);
    // The membership ends: the listed tree is simply not seen any more.
    expect((await owner.browser.delete(`/api/v1/members/${invited.body.member.id}`)).status).toBe(200);
    expect((await agent.get(`/api/v1/trees/${own}`)).status).toBe(404);
    expect((await agent.get('/api/v1/trees')).body.items).toEqual([]);
  });

  it('simply no longer sees a listed tree that was deleted', async () => {
    const doomed = (await makeTree(owner.browser, { name: 'Doomed' })).id;
    const { agent } = await makeToken(owner, { tree_ids: [doomed, own] });
    expect((await owner.browser.delete(`/api/v1/trees/${doomed}`)).status).toBe(200);
    expect((await agent.get(`/api/v1/trees/${doomed}`)).status).toBe(404);
    expect((await agent.get('/api/v1/trees')).body.items.map((x: any) => x.id)).toEqual([own]);
  });

  it('is 400 validation_failed for no ids, more than 50, a repeat or a bad id, and creates nothing', async () => {
    const before = await count();
    const fifty = Array.from({ length: 51 }, () => randomId('tre'));
    for (const treeIds of [[], fifty, [own, own], [''], ['x'.repeat(161)], 'tre_1', [1]]) {
      const answer = await owner.browser.post('/api/v1/tokens', { name: 'bad', tree_ids: treeIds });
      expect(answer.status, JSON.stringify(treeIds).slice(0, 40)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect(await count()).toBe(before);
  });
});
