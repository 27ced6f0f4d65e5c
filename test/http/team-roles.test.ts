import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeUser, type Person, uniqueEmail } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { Client, type Answer } from '../helpers/client.js';

/** One tree with what the endpoints act on; every target is made fresh by the owner, so a success never spends another's. */
interface Fixture {
  owner: Person;
  treeId: string;
  /** A fresh membership of the tree to act on (invited by the owner). */
  newMember(): Promise<string>;
}

function fixture(owner: Person, treeId: string): Fixture {
  return {
    owner,
    treeId,
    newMember: async () =>
      (await owner.browser.post(`/api/v1/trees/${treeId}/members`, { email: uniqueEmail(), role: 'viewer' })).body
        .member.id,
  };
}

type Who =
  'no credential' | 'owner' | 'editor' | 'viewer' | 'pending' | 'revoked' | 'expired' | 'stranger' | 'owner downgraded';

/** Every team endpoint: how to call it as `client` on the fixture's tree, and what each role gets. */
const endpoints: {
  name: string;
  call: (client: Client, fx: Fixture) => Promise<Answer>;
  owner: number;
  editor: number;
  viewer: number;
}[] = [
  {
    name: 'GET /trees/{id}/members',
    owner: 200,
    editor: 200,
    viewer: 200,
    call: (c, fx) => c.get(`/api/v1/trees/${fx.treeId}/members`),
  },
  {
    name: 'POST /trees/{id}/members',
    owner: 201,
    editor: 403,
    viewer: 403,
    call: (c, fx) => c.post(`/api/v1/trees/${fx.treeId}/members`, { email: uniqueEmail(), role: 'viewer' }),
  },
  {
    name: 'PATCH /members/{id}',
    owner: 200,
    editor: 403,
    viewer: 403,
    call: async (c, fx) => c.patch(`/api/v1/members/${await fx.newMember()}`, { role: 'editor' }),
  },
  {
    name: 'DELETE /members/{id}',
    owner: 200,
    editor: 403,
    viewer: 403,
    call: async (c, fx) => c.delete(`/api/v1/members/${await fx.newMember()}`),
  },
  {
    name: 'PUT /tasks/{id}/assignees',
    owner: 200,
    editor: 200,
    viewer: 403,
    call: async (c, fx) =>
      c.put(`/api/v1/tasks/${(await makeTask(fx.owner.browser, fx.treeId)).id}/assignees`, {
        user_ids: [fx.owner.user.id],
      }),
  },
  {
    name: 'GET /tasks/{id}/comments',
    owner: 200,
    editor: 200,
    viewer: 200,
    call: async (c, fx) => c.get(`/api/v1/tasks/${(await makeTask(fx.owner.browser, fx.treeId)).id}/comments`),
  },
  {
    name: 'POST /tasks/{id}/comments',
    owner: 201,
    editor: 201,
    viewer: 403,
    call: async (c, fx) =>
      c.post(`/api/v1/tasks/${(await makeTask(fx.owner.browser, fx.treeId)).id}/comments`, { body: 'hello' }),
  },
  {
    // The owner's own comment: only its author edits it.
    name: 'PATCH /comments/{id}',
    owner: 200,
    editor: 403,
    viewer: 403,
    call: async (c, fx) => c.patch(`/api/v1/comments/${await ownerComment(fx)}`, { body: 'edited' }),
  },
  {
    name: 'DELETE /comments/{id}',
    owner: 200,
    editor: 403,
    viewer: 403,
    call: async (c, fx) => c.delete(`/api/v1/comments/${await ownerComment(fx)}`),
  },
  {
    name: 'GET /trees/{id}/messages',
    owner: 200,
    editor: 200,
    viewer: 200,
    call: (c, fx) => c.get(`/api/v1/trees/${fx.treeId}/messages`),
  },
  {
    name: 'POST /trees/{id}/messages',
    owner: 201,
    editor: 201,
    viewer: 403,
    call: (c, fx) => c.post(`/api/v1/trees/${fx.treeId}/messages`, { body: 'hello' }),
  },
  {
    name: 'GET /trees/{id}/history',
    owner: 200,
    editor: 200,
    viewer: 200,
    call: (c, fx) => c.get(`/api/v1/trees/${fx.treeId}/history`),
  },
  {
    name: 'POST /trees/{id}/import',
    owner: 201,
    editor: 201,
    viewer: 403,
    call: (c, fx) =>
      c.request('POST', `/api/v1/trees/${fx.treeId}/import`, { raw: 'title\nImported\n', contentType: 'text/csv' }),
  },
];

async function ownerComment(fx: Fixture): Promise<string> {
  const task = await makeTask(fx.owner.browser, fx.treeId);
  return (await fx.owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'by the owner' })).body.comment.id;
}

describe.each(databases)('team endpoints walk the role matrix (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  const people = new Map<Who, { client: Client; fx: Fixture }>();

  async function join(
    fx: Fixture,
    role: 'viewer' | 'editor',
    then: 'accept' | 'stay' | 'revoke' | 'expire' = 'accept',
  ): Promise<Client> {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await fx.owner.browser.post(`/api/v1/trees/${fx.treeId}/members`, { email: person.email, role });
    const id = invited.body.member.id;
    if (then !== 'stay') await person.browser.post(`/api/v1/invitations/${id}/accept`, { token: inviteToken(invited) });
    if (then === 'revoke') await fx.owner.browser.delete(`/api/v1/members/${id}`);
    if (then === 'expire')
      await fx.owner.browser.patch(`/api/v1/members/${id}`, { expires_at: new Date(Date.now() - 1000).toISOString() });
    return person.browser;
  }

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_PER_MINUTE: '100000' });
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const fx = fixture(owner, (await makeTree(owner.browser)).id);
    people.set('owner', { client: owner.browser, fx });
    people.set('editor', { client: await join(fx, 'editor'), fx });
    people.set('viewer', { client: await join(fx, 'viewer'), fx });
    people.set('pending', { client: await join(fx, 'editor', 'stay'), fx });
    people.set('revoked', { client: await join(fx, 'editor', 'revoke'), fx });
    people.set('expired', { client: await join(fx, 'editor', 'expire'), fx });
    people.set('stranger', { client: (await makeUser(t.url, t.app, { plan: 'grove' })).browser, fx });
    people.set('no credential', { client: new Client(t.url), fx });
    // An editor of a tree whose owner has since left Grove: the tree is gone for them, not for its owner.
    const fallen = await makeUser(t.url, t.app, { plan: 'grove' });
    const fallenTree = fixture(fallen, (await makeTree(fallen.browser)).id);
    const client = await join(fallenTree, 'editor');
    // Off Grove the owner can invite no one, so the memberships to act on are made before the fall.
    const spare = await Promise.all([fallenTree.newMember(), fallenTree.newMember()]);
    expect(spare.every((id) => typeof id === 'string')).toBe(true);
    await setUserPlan(t.app.deps, fallen.email, 'sprout', null);
    people.set('owner downgraded', { client, fx: { ...fallenTree, newMember: async () => spare.pop()! } });
  });
  afterAll(async () => t.stop());

  for (const endpoint of endpoints) {
    it(endpoint.name, async () => {
      const expected: Record<Who, number> = {
        'no credential': 401,
        owner: endpoint.owner,
        editor: endpoint.editor,
        viewer: endpoint.viewer,
        pending: 404,
        revoked: 404,
        expired: 404,
        stranger: 404,
        'owner downgraded': 404,
      };
      const got: Record<string, number> = {};
      for (const [who, { client, fx }] of people) {
        got[who] = (await endpoint.call(client, fx)).status;
      }
      expect(got).toEqual(expected);
    });
  }
});
