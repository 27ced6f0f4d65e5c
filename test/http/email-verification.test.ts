import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { inviteToken, makeToken, makeUser, PASSWORD, uniqueEmail, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { startFakeSmtp, waitForMail } from '../helpers/fake-smtp.js';

/**
 * Issue 30 point 6 (CONTRACT §19): an invitation binds only to a proven email. Registering the
 * invited address grants nothing until the account verifies it through the mailed link, or
 * someone signed in accepts with the invitation's own one-time link.
 */
describe.each(databases)('invitations bound to a proven email (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let tree: { id: string };
  let taskId: string;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp(kind, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Task Tree <mail@tasktree.test>',
      PUBLIC_URL: 'https://tasks.example.test',
    });
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    tree = await makeTree(owner.browser, { name: 'Private orchard' });
    taskId = (await makeTask(owner.browser, tree.id, { title: 'Graft the pear' })).id;
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  const invite = (email: string) => owner.browser.post(`/api/v1/trees/${tree.id}/members`, { email, role: 'editor' });

  /** Verifies the person's email through the mailed link, as the browser's /verify page does. */
  async function verifyByMail(person: Person) {
    const asked = await person.browser.post('/api/v1/auth/verify/request');
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toEqual({ status: 'queued', delivery: 'sent' });
    const [, token] = await waitForMail(
      smtp.mails,
      person.email,
      /https:\/\/tasks\.example\.test\/verify\?token=([A-Za-z0-9_-]+)/,
    );
    return person.browser.post('/api/v1/auth/verify/complete', { token });
  }

  it('gives a ghost who registers the invited address nothing until the address is verified', async () => {
    const email = uniqueEmail('ghost');
    const invited = await invite(email);
    expect(invited.status).toBe(201);
    const memberId = invited.body.member.id as string;
    const ghost = await makeUser(t.url, t.app, { email });
    expect(ghost.user.email_verified).toBe(false);

    expect((await ghost.browser.get('/api/v1/invitations')).body.items).toEqual([]);
    for (const answer of [
      await ghost.browser.post(`/api/v1/invitations/${memberId}/accept`),
      await ghost.browser.post(`/api/v1/invitations/${memberId}/decline`),
      await ghost.browser.delete(`/api/v1/members/${memberId}`),
    ]) {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await ghost.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(404);
    const members = (await owner.browser.get(`/api/v1/trees/${tree.id}/members`)).body.items;
    expect(members.find((m: any) => m.id === memberId)).toMatchObject({ status: 'pending', user_id: null });

    // The mailed link proves the address: from then on the invitation is theirs to see and accept.
    const verified = await verifyByMail(ghost);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.user).toMatchObject({ id: ghost.user.id, email, email_verified: true });
    expect((await ghost.browser.get('/api/v1/auth/me')).body.user.email_verified).toBe(true);
    expect((await ghost.browser.get('/api/v1/invitations')).body.items.map((x: any) => [x.id, x.tree_name])).toEqual([
      [memberId, 'Private orchard'],
    ]);
    const accepted = await ghost.browser.post(`/api/v1/invitations/${memberId}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.member).toMatchObject({ status: 'active', user_id: ghost.user.id });
    expect((await ghost.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
  });

  it('binds an account that exists but never verified only once it verifies', async () => {
    const bob = await makeUser(t.url, t.app);
    const invited = await invite(bob.email);
    expect(invited.body.member.user_id).toBeNull();
    expect((await bob.browser.get('/api/v1/invitations')).body.items).toEqual([]);
    expect((await bob.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(404);
    expect((await verifyByMail(bob)).status).toBe(200);
    expect((await bob.browser.get('/api/v1/invitations')).body.items.map((x: any) => x.id)).toEqual([
      invited.body.member.id,
    ]);
    // An account that has verified is bound at once by the next invitation.
    const other = await makeTree(owner.browser, { name: 'Second orchard' });
    const again = await owner.browser.post(`/api/v1/trees/${other.id}/members`, { email: bob.email, role: 'viewer' });
    expect(again.body.member.user_id).toBe(bob.user.id);
  });

  it('answers every invitation with a one-time link, mailed to the address, that whoever is signed in accepts once', async () => {
    const email = uniqueEmail('invited');
    const invited = await invite(email);
    const url = new URL(invited.body.invite_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://tasks.example.test/invite');
    expect([...url.searchParams.keys()]).toEqual(['token', 'id']);
    expect(url.searchParams.get('id')).toBe(invited.body.member.id);
    const token = inviteToken(invited);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The same link goes to the invited address; only its hash is stored.
    const [mailed] = await waitForMail(smtp.mails, email, /https:\/\/tasks\.example\.test\/invite\?\S+/);
    expect(mailed).toBe(invited.body.invite_url);
    const stored = await t.app.deps.db
      .selectFrom('members')
      .select('invite_token_hash')
      .where('id', '=', invited.body.member.id)
      .executeTakeFirstOrThrow();
    expect(stored.invite_token_hash).not.toBeNull();
    expect(stored.invite_token_hash).not.toContain(token);
    expect(JSON.stringify((await owner.browser.get(`/api/v1/trees/${tree.id}/members`)).body)).not.toContain(token);

    // Someone with another address, unverified, who was handed the link.
    const holder = await makeUser(t.url, t.app);
    const id = invited.body.member.id as string;
    expect((await holder.browser.post(`/api/v1/invitations/${id}/accept`)).status).toBe(404);
    expect(
      (await holder.browser.post(`/api/v1/invitations/${id}/accept`, { token: `${token.slice(0, -1)}x` })).status,
    ).toBe(404);
    expect((await holder.browser.post('/api/v1/invitations/mbr_unknown/accept', { token })).status).toBe(404);
    expect((await owner.browser.post(`/api/v1/invitations/${id}/accept`, { token })).status).toBe(409);
    const accepted = await holder.browser.post(`/api/v1/invitations/${id}/accept`, { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.member).toMatchObject({
      id,
      status: 'active',
      user_id: holder.user.id,
      email: holder.email,
      role: 'editor',
    });
    expect((await holder.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(200);
    // Once only: a second use, by anyone, is 404.
    const third = await makeUser(t.url, t.app);
    for (const person of [third, holder]) {
      const again = await person.browser.post(`/api/v1/invitations/${id}/accept`, { token });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('not_found');
    }
    expect((await third.browser.get(`/api/v1/tasks/${taskId}`)).status).toBe(404);
  });

  it('kills the link of a revoked invitation and gives a re-invitation a new one', async () => {
    const email = uniqueEmail('revoked');
    const invited = await invite(email);
    expect((await owner.browser.delete(`/api/v1/members/${invited.body.member.id}`)).status).toBe(200);
    const holder = await makeUser(t.url, t.app);
    expect(
      (
        await holder.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
          token: inviteToken(invited),
        })
      ).status,
    ).toBe(404);
    const again = await invite(email);
    expect(again.body.member.id).toBe(invited.body.member.id);
    expect(inviteToken(again)).not.toBe(inviteToken(invited));
    expect(
      (await holder.browser.post(`/api/v1/invitations/${again.body.member.id}/accept`, { token: inviteToken(again) }))
        .status,
    ).toBe(200);
  });

  it('refuses a link to someone who already has a membership of the tree (409), leaving the link usable', async () => {
    const member = await makeUser(t.url, t.app);
    const first = await invite(member.email);
    expect(
      (await member.browser.post(`/api/v1/invitations/${first.body.member.id}/accept`, { token: inviteToken(first) }))
        .status,
    ).toBe(200);
    const second = await invite(uniqueEmail('second'));
    const refused = await member.browser.post(`/api/v1/invitations/${second.body.member.id}/accept`, {
      token: inviteToken(second),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    const stranger = await makeUser(t.url, t.app);
    expect(
      (
        await stranger.browser.post(`/api/v1/invitations/${second.body.member.id}/accept`, {
          token: inviteToken(second),
        })
      ).status,
    ).toBe(200);
  });

  it('takes a verification token once, within its day, from the account it was mailed to', async () => {
    const person = await makeUser(t.url, t.app);
    const other = await makeUser(t.url, t.app);
    await person.browser.post('/api/v1/auth/verify/request');
    const [, token] = await waitForMail(smtp.mails, person.email, /\/verify\?token=([A-Za-z0-9_-]+)/);
    const stored = await t.app.deps.db
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('owner_id', '=', person.user.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    for (const [who, body] of [
      [other, { token }],
      [person, { token: 'made-up' }],
      [person, { token: '' }],
      [person, { token, extra: 1 }],
    ] as const) {
      const answer = await who.browser.post('/api/v1/auth/verify/complete', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await other.browser.get('/api/v1/auth/me')).body.user.email_verified).toBe(false);
    expect((await person.browser.post('/api/v1/auth/verify/complete', { token })).status).toBe(200);
    const twice = await person.browser.post('/api/v1/auth/verify/complete', { token });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([{ path: '/token', message: expect.stringContaining('already used') }]);
    const verifiedAgain = await person.browser.post('/api/v1/auth/verify/request');
    expect(verifiedAgain.status).toBe(409);
    expect(verifiedAgain.body.error.code).toBe('conflict');

    const late = await makeUser(t.url, t.app);
    await late.browser.post('/api/v1/auth/verify/request');
    const [, lateToken] = await waitForMail(smtp.mails, late.email, /\/verify\?token=([A-Za-z0-9_-]+)/);
    await t.app.deps.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('owner_id', '=', late.user.id)
      .execute();
    expect((await late.browser.post('/api/v1/auth/verify/complete', { token: lateToken })).status).toBe(400);
  });

  it('sends an account at most 5 verification mails an hour (429 rate_limited after)', async () => {
    const person = await makeUser(t.url, t.app);
    for (let i = 0; i < 5; i++) expect((await person.browser.post('/api/v1/auth/verify/request')).status).toBe(202);
    const sixth = await person.browser.post('/api/v1/auth/verify/request');
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe('rate_limited');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('needs a signed-in browser session with its CSRF value', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const forged = { headers: { 'x-csrf-token': 'forged' } };
    for (const path of ['/api/v1/auth/verify/request', '/api/v1/auth/verify/complete']) {
      const noCsrf = await person.browser.request('POST', path, { body: { token: 'x' }, ...forged });
      expect(noCsrf.status, path).toBe(403);
      expect(noCsrf.body.error.code).toBe('csrf_failed');
      const anonymous = new Client(t.url);
      await anonymous.get('/api/v1/auth/me');
      expect((await anonymous.post(path, { token: 'x' })).status, path).toBe(401);
      const { agent } = await makeToken(person);
      const bearer = await agent.post(path, { token: 'x' });
      expect(bearer.status, path).toBe(403);
      expect(bearer.body.error.code).toBe('session_required');
    }
    expect(smtp.mails.some((m) => m.to.includes(person.email))).toBe(false);
  });

  it('counts a completed password reset as proof of the address', async () => {
    const email = uniqueEmail('reset');
    const invited = await invite(email);
    const person = await makeUser(t.url, t.app, { email });
    const browser = new Client(t.url);
    await browser.get('/api/v1/auth/me');
    await browser.post('/api/v1/auth/reset/request', { email });
    const [, token] = await waitForMail(smtp.mails, email, /\/reset\?token=([A-Za-z0-9_-]+)/);
    const done = await browser.post('/api/v1/auth/reset/complete', { token, password: `${PASSWORD} again` });
    expect(done.body.user).toMatchObject({ id: person.user.id, email_verified: true });
    expect((await browser.get('/api/v1/invitations')).body.items.map((x: any) => x.id)).toEqual([
      invited.body.member.id,
    ]);
  });
});

describe.each(databases)('email verification without mail (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('answers 202 delivery not_configured and stores no token', async () => {
    const person = await makeUser(t.url, t.app);
    const answer = await person.browser.post('/api/v1/auth/verify/request');
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ status: 'queued', delivery: 'not_configured' });
    expect(await t.app.deps.db.selectFrom('email_verifications').selectAll().execute()).toEqual([]);
    expect((await person.browser.get('/api/v1/auth/me')).body.user.email_verified).toBe(false);
  });

  it('still shows the owner the invitation link once', async () => {
    const owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const tree = await makeTree(owner.browser);
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: uniqueEmail(),
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    expect(invited.body.invite_url).toMatch(
      new RegExp(`^${t.env.config.publicUrl}/invite\\?token=[A-Za-z0-9_-]{43}&id=mbr_`),
    );
  });
});
