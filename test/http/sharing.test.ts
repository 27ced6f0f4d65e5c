import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, uniqueEmail, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { verifyEmailByOperator } from '../../src/domain/accounts/email-verification.js';
import type { Answer } from '../helpers/client.js';

/** A 404 body with its request id blanked, so two answers can be compared byte for byte. */
function withoutRequestId(answer: Answer): string {
  return answer.text.replace(/"request_id":"[^"]+"/, '"request_id":""');
}

describe.each(databases)('sharing trees (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let tree: { id: string };
  let taskId: string;

  /** A person invited to `tree` with `role`, who accepted (unless `accept` is false). */
  async function member(role: 'viewer' | 'editor', accept = true, plan: 'seed' | 'sprout' = 'sprout') {
    const person = await makeUser(t.url, t.app, { plan, verified: true });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role });
    expect(invited.status, invited.text).toBe(201);
    if (accept)
      expect((await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(200);
    return { person, memberId: invited.body.member.id as string };
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    tree = await makeTree(owner.browser, { name: 'Shared garden' });
    taskId = (await makeTask(owner.browser, tree.id, { title: 'Prune the apple tree' })).id;
  });
  afterAll(async () => t.stop());

  it('needs the owner on Grove to invite (403 plan_limit_reached, sharing)', async () => {
    const sprout = await makeUser(t.url, t.app, { plan: 'sprout' });
    const own = await makeTree(sprout.browser);
    const answer = await sprout.browser.post(`/api/v1/trees/${own.id}/members`, {
      email: uniqueEmail(),
      role: 'viewer',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('plan_limit_reached');
    expect(answer.body.error.details[0].limit).toBe('sharing');
  });

  it('invites, binds an account with that verified email at once, and the member accepts', async () => {
    const bob = await makeUser(t.url, t.app, { verified: true });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: bob.email.toUpperCase(),
      role: 'editor',
    });
    expect(invited.status).toBe(201);
    expect(invited.body.member).toEqual({
      id: expect.stringMatching(/^mbr_/),
      tree_id: tree.id,
      user_id: bob.user.id,
      email: bob.email,
      name: '',
      role: 'editor',
      status: 'pending',
      expires_at: null,
      invited_by: owner.user.id,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    // Pending: the tree is not visible yet.
    expect((await bob.browser.get(`/api/v1/trees/${tree.id}`)).status).toBe(404);
    const invitations = await bob.browser.get('/api/v1/invitations');
    expect(invitations.body.items).toEqual([
      { ...invitations.body.items[0], id: invited.body.member.id, tree_name: 'Shared garden', status: 'pending' },
    ]);
    // Who sent it: the owner's email while they have no name, their name once they have one.
    expect(owner.user.name).toBe('');
    expect(invitations.body.items[0].invited_by_name).toBe(owner.email);
    expect((await owner.browser.patch('/api/v1/auth/profile', { name: 'Olive Owner' })).status).toBe(200);
    expect((await bob.browser.get('/api/v1/invitations')).body.items[0].invited_by_name).toBe('Olive Owner');
    expect((await owner.browser.patch('/api/v1/auth/profile', { name: '' })).status).toBe(200);
    const accepted = await bob.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.member.status).toBe('active');
    expect((await bob.browser.get('/api/v1/invitations')).body.items).toEqual([]);
    const trees = await bob.browser.get('/api/v1/trees');
    expect(trees.body.items.map((x: any) => [x.id, x.access])).toEqual([[tree.id, 'editor']]);
    const snapshot = await bob.browser.get(`/api/v1/trees/${tree.id}`);
    expect(snapshot.status).toBe(200);
    expect(snapshot.body.tree.access).toBe('editor');
  });

  it('names each member by their account (null until one is linked) and the owner to members, on every path', async () => {
    const named = await makeUser(t.url, t.app, { plan: 'grove', verified: true });
    const garden = await makeTree(named.browser, { name: 'Named garden' });
    const dee = await makeUser(t.url, t.app, { verified: true });
    expect((await dee.browser.patch('/api/v1/auth/profile', { name: 'Dee Gardener' })).status).toBe(200);
    const stranger = uniqueEmail('unlinked');
    const invited = await named.browser.post(`/api/v1/trees/${garden.id}/members`, {
      email: dee.email,
      role: 'viewer',
    });
    expect(invited.body.member.name).toBe('Dee Gardener');
    const unlinked = await named.browser.post(`/api/v1/trees/${garden.id}/members`, {
      email: stranger,
      role: 'viewer',
    });
    expect(unlinked.body.member).toMatchObject({ user_id: null, name: null });
    expect((await dee.browser.get('/api/v1/invitations')).body.items[0].name).toBe('Dee Gardener');
    const id = invited.body.member.id;
    expect((await dee.browser.post(`/api/v1/invitations/${id}/accept`)).body.member.name).toBe('Dee Gardener');
    expect((await named.browser.patch(`/api/v1/members/${id}`, { role: 'editor' })).body.member.name).toBe(
      'Dee Gardener',
    );

    // The owner has no name yet: members see their email; once named, their name.
    const asMember = await dee.browser.get(`/api/v1/trees/${garden.id}/members`);
    expect(asMember.status).toBe(200);
    expect(asMember.body.owner_name).toBe(named.email);
    expect(asMember.body.items.map((m: any) => [m.email, m.name])).toEqual([
      [dee.email, 'Dee Gardener'],
      [stranger, null],
    ]);
    expect((await named.browser.patch('/api/v1/auth/profile', { name: 'Olive Owner' })).status).toBe(200);
    expect((await dee.browser.get(`/api/v1/trees/${garden.id}/members`)).body.owner_name).toBe('Olive Owner');
    expect((await named.browser.get(`/api/v1/trees/${garden.id}/members`)).body.owner_name).toBe('Olive Owner');
    // A member's name follows their profile.
    expect((await dee.browser.patch('/api/v1/auth/profile', { name: 'Dee' })).status).toBe(200);
    expect((await named.browser.get(`/api/v1/trees/${garden.id}/members`)).body.items[0].name).toBe('Dee');
    expect((await dee.browser.delete(`/api/v1/members/${id}`)).body.member).toMatchObject({
      status: 'revoked',
      name: 'Dee',
    });
  });

  it('binds an invitation to an email without an account when an account verifies that email', async () => {
    const email = uniqueEmail('later');
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email, role: 'viewer' });
    expect(invited.body.member.user_id).toBeNull();
    const carol = await makeUser(t.url, t.app, { email });
    // Registering proves nothing about the address (CONTRACT §19): the invitation waits.
    expect((await carol.browser.get('/api/v1/invitations')).body.items).toEqual([]);
    await verifyEmailByOperator(t.app.deps, email);
    const invitations = await carol.browser.get('/api/v1/invitations');
    expect(invitations.body.items.map((x: any) => x.id)).toEqual([invited.body.member.id]);
    expect((await carol.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).body.member.user_id).toBe(
      carol.user.id,
    );
    expect((await carol.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
  });

  it('refuses inviting yourself or a member twice (409); re-inviting a revoked member works', async () => {
    const self = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: owner.email, role: 'viewer' });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('conflict');
    // Each rule says which it is (CONTRACT §18: the app words them apart).
    expect(self.body.error.details).toEqual([expect.objectContaining({ path: '/email', reason: 'own_tree' })]);
    const pending = uniqueEmail();
    expect(
      (await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: pending, role: 'viewer' })).status,
    ).toBe(201);
    const invitedTwice = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: pending,
      role: 'viewer',
    });
    expect(invitedTwice.status).toBe(409);
    expect(invitedTwice.body.error.details).toEqual([expect.objectContaining({ reason: 'already_invited' })]);
    const { person, memberId } = await member('viewer');
    const twice = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role: 'editor' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({
      code: 'conflict',
      details: [expect.objectContaining({ reason: 'already_member' })],
    });
    expect((await owner.browser.delete(`/api/v1/members/${memberId}`)).body.member.status).toBe('revoked');
    const again = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email: person.email, role: 'editor' });
    expect(again.status).toBe(201);
    expect(again.body.member).toMatchObject({ id: memberId, status: 'pending', role: 'editor' });
  });

  it('refuses bad emails, roles and unknown properties, writing nothing', async () => {
    const before = (await owner.browser.get(`/api/v1/trees/${tree.id}/members`)).body.items.length;
    for (const body of [
      { email: 'not-an-email', role: 'viewer' },
      { email: uniqueEmail(), role: 'admin' },
      { email: uniqueEmail() },
      { email: uniqueEmail(), role: 'viewer', bogus: 1 },
      { email: uniqueEmail(), role: 'viewer', expires_at: 'tomorrow' },
    ]) {
      const answer = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await owner.browser.get(`/api/v1/trees/${tree.id}/members`)).body.items.length).toBe(before);
  });

  it('lets an editor write and a viewer only read (403 forbidden); only the owner manages the tree', async () => {
    const { person: editor } = await member('editor');
    const { person: viewer, memberId: viewerMember } = await member('viewer');
    const created = await editor.browser.post('/api/v1/tasks', { tree_id: tree.id, title: 'Rake leaves' });
    expect(created.status).toBe(201);
    expect(created.body.task.created_by).toBe(editor.user.id);
    expect((await editor.browser.patch(`/api/v1/tasks/${taskId}`, { status: 'open' })).status).toBe(200);
    for (const answer of [
      await viewer.browser.post('/api/v1/tasks', { tree_id: tree.id, title: 'nope' }),
      await viewer.browser.patch(`/api/v1/tasks/${taskId}`, { status: 'done' }),
      await viewer.browser.post('/api/v1/projects', { tree_id: tree.id, name: 'nope' }),
      await editor.browser.patch(`/api/v1/trees/${tree.id}`, { name: 'Mine now' }),
      await editor.browser.delete(`/api/v1/trees/${tree.id}`),
      await editor.browser.post(`/api/v1/trees/${tree.id}/members`, { email: uniqueEmail(), role: 'viewer' }),
      await editor.browser.patch(`/api/v1/members/${viewerMember}`, { role: 'editor' }),
      await editor.browser.delete(`/api/v1/members/${viewerMember}`),
    ]) {
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
    }
    expect((await viewer.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
    expect((await viewer.browser.get(`/api/v1/tasks?tree_id=${tree.id}`)).body.items.map((x: any) => x.id)).toContain(
      taskId,
    );
    expect((await viewer.browser.get('/api/v1/search?q=apple')).body.items.map((x: any) => x.id)).toEqual([taskId]);
    expect((await viewer.browser.get(`/api/v1/trees/${tree.id}/export`)).status).toBe(200);
    // A plan limit of a shared tree is the owner's: the editor's own Sprout is not what counts.
    const project = await makeProject(editor.browser, tree.id);
    expect(project.tree_id).toBe(tree.id);
  });

  it("makes a revoked member's 404 byte-identical to an unknown id's, on every door", async () => {
    const { person, memberId } = await member('editor');
    const { agent } = await makeToken(person, { scopes: ['read'] });
    expect((await agent.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
    expect((await owner.browser.delete(`/api/v1/members/${memberId}`)).status).toBe(200);
    const revoked = await agent.get(`/api/v1/tasks/${taskId}`);
    const unknown = await agent.get('/api/v1/tasks/tsk_doesnotexist');
    expect(revoked.status).toBe(404);
    expect(withoutRequestId(revoked)).toBe(withoutRequestId(unknown));
    const revokedTree = await person.browser.get(`/api/v1/trees/${tree.id}`);
    const unknownTree = await person.browser.get('/api/v1/trees/tre_doesnotexist');
    expect(withoutRequestId(revokedTree)).toBe(withoutRequestId(unknownTree));
    expect((await person.browser.get('/api/v1/trees')).body.items).toEqual([]);
    expect((await agent.get('/api/v1/search?q=apple')).body.items).toEqual([]);
  });

  it('walks the role matrix on a read, a write and the member list', async () => {
    const { person: editor } = await member('editor');
    const { person: viewer } = await member('viewer');
    const { person: pending } = await member('viewer', false);
    const { person: revoked, memberId: revokedId } = await member('editor');
    await owner.browser.delete(`/api/v1/members/${revokedId}`);
    const expiredPerson = await makeUser(t.url, t.app, { verified: true });
    const expiredInvite = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: expiredPerson.email,
      role: 'editor',
      expires_at: '2030-01-01T00:00:00Z',
    });
    await expiredPerson.browser.post(`/api/v1/invitations/${expiredInvite.body.member.id}/accept`);
    await owner.browser.patch(`/api/v1/members/${expiredInvite.body.member.id}`, {
      expires_at: '2020-01-01T00:00:00Z',
    });
    const stranger = await makeUser(t.url, t.app);
    const anonymous = (await makeUser(t.url)).browser;
    await anonymous.post('/api/v1/auth/logout');

    const cases: [string, typeof owner.browser, number, number][] = [
      ['owner', owner.browser, 200, 201],
      ['editor', editor.browser, 200, 201],
      ['viewer', viewer.browser, 200, 403],
      ['pending', pending.browser, 404, 404],
      ['revoked', revoked.browser, 404, 404],
      ['expired', expiredPerson.browser, 404, 404],
      ['stranger', stranger.browser, 404, 404],
      ['no credential', anonymous, 401, 401],
    ];
    for (const [who, client, read, write] of cases) {
      expect((await client.get(`/api/v1/trees/${tree.id}`)).status, `${who} read`).toBe(read);
      expect((await client.get(`/api/v1/tasks/${taskId}`)).status, `${who} task read`).toBe(read);
      expect((await client.get(`/api/v1/trees/${tree.id}/members`)).status, `${who} members`).toBe(read);
      expect(
        (await client.post('/api/v1/tasks', { tree_id: tree.id, title: `by ${who}` })).status,
        `${who} write`,
      ).toBe(write);
    }
    const members = (await owner.browser.get(`/api/v1/trees/${tree.id}/members`)).body.items;
    expect(members.find((m: any) => m.id === expiredInvite.body.member.id).status).toBe('expired');
  });

  it('hides the tree from members when the owner falls off Grove, and restores it on upgrade', async () => {
    const { person } = await member('viewer');
    const { agent } = await makeToken(person, { scopes: ['read'] });
    expect((await agent.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
    await setUserPlan(t.app.deps, owner.email, 'sprout', null);
    try {
      expect((await agent.get(`/api/v1/tasks/${taskId}`)).status).toBe(404);
      expect((await person.browser.get('/api/v1/trees')).body.items).toEqual([]);
      // The owner keeps everything.
      expect((await owner.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
    } finally {
      await setUserPlan(t.app.deps, owner.email, 'grove', null);
    }
    expect((await agent.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
  });

  it('lets a member leave and decline; a stranger cannot touch a membership', async () => {
    const { person, memberId } = await member('viewer');
    const stranger = await makeUser(t.url, t.app);
    expect((await stranger.browser.delete(`/api/v1/members/${memberId}`)).status).toBe(404);
    expect((await stranger.browser.post(`/api/v1/invitations/${memberId}/accept`)).status).toBe(404);
    const left = await person.browser.delete(`/api/v1/members/${memberId}`);
    expect(left.status).toBe(200);
    expect(left.body.member.status).toBe('revoked');
    expect((await person.browser.get(`/api/v1/trees/${tree.id}`)).status).toBe(404);
    const { person: invitee, memberId: invitation } = await member('viewer', false);
    expect((await invitee.browser.post(`/api/v1/invitations/${invitation}/decline`)).body.member.status).toBe(
      'revoked',
    );
    expect((await invitee.browser.post(`/api/v1/invitations/${invitation}/accept`)).status).toBe(404);
  });
});
