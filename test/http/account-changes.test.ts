import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { startBlobStore, storeMatrix, type TestBlobStore } from '../helpers/blob-stores.js';
import { Client } from '../helpers/client.js';
import { inviteToken, makeToken, makeUser, PASSWORD, uniqueEmail, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { connect } from '../helpers/oauth.js';
import { connectMcp } from '../helpers/mcp.js';
import { startFakeSmtp, waitForMail } from '../helpers/fake-smtp.js';
import { billingEnv, startFakeBilling } from '../helpers/fake-billing.js';
import type { App } from '../../src/app.js';

const NEW_PASSWORD = 'a brand new passphrase';

/** A second browser of the same person, signed in with the password. */
async function signIn(baseUrl: string, email: string, password = PASSWORD): Promise<Client> {
  const browser = new Client(baseUrl);
  await browser.get('/api/v1/auth/me');
  const answer = await browser.post('/api/v1/auth/login', { email, password });
  if (answer.status !== 200) throw new Error(`login: ${answer.status} ${answer.text}`);
  return browser;
}

/** A sign-in attempt from a fresh browser: its status. */
async function tryLogin(baseUrl: string, email: string, password: string): Promise<number> {
  const browser = new Client(baseUrl);
  await browser.get('/api/v1/auth/me');
  return (await browser.post('/api/v1/auth/login', { email, password })).status;
}

async function signedInAs(browser: Client): Promise<string | null> {
  return (await browser.get('/api/v1/auth/me')).body.user?.id ?? null;
}

describe.each(databases)('changing the password and the email (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp(kind, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Task Tree <mail@tasktree.test>',
      PUBLIC_URL: 'https://tasks.example.test',
    });
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  it('changes the password: this session rotates, other browser sessions end, tokens and OAuth grants stay', async () => {
    const person = await makeUser(t.url);
    const other = await signIn(t.url, person.email);
    const { agent } = await makeToken(person);
    const oauth = await connect(t.url, person.browser, 'https://tasks.example.test/api/v1');
    const before = { cookie: person.browser.cookies.get('tt_session'), csrf: person.browser.csrf };

    const wrong = await person.browser.post('/api/v1/auth/password', {
      current_password: 'not the password',
      new_password: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthenticated');
    const short = await person.browser.post('/api/v1/auth/password', {
      current_password: PASSWORD,
      new_password: 'short',
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body.error.details)).toContain('/new_password');
    expect(await signedInAs(other)).toBe(person.user.id);

    const changed = await person.browser.post('/api/v1/auth/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ user: expect.objectContaining({ id: person.user.id }), csrf: expect.any(String) });
    expect(changed.body.csrf).not.toBe(before.csrf);
    expect(person.browser.cookies.get('tt_session')).not.toBe(before.cookie);
    expect(await signedInAs(person.browser)).toBe(person.user.id);
    // The new CSRF value works; the old cookie signs nobody in.
    expect((await person.browser.patch('/api/v1/auth/profile', { name: 'Renamed' })).status).toBe(200);
    const stale = new Client(t.url);
    stale.cookies.set('tt_session', before.cookie!);
    expect(await signedInAs(stale)).toBeNull();
    expect(await signedInAs(other)).toBeNull();
    // Tokens and OAuth grants stay.
    expect((await agent.get('/api/v1/trees')).status).toBe(200);
    const viaOAuth = await fetch(`${t.url}/api/v1/trees`, {
      headers: { authorization: `Bearer ${oauth.tokens.access_token}` },
    });
    expect(viaOAuth.status).toBe(200);
    // Only the new password signs in.
    expect(await tryLogin(t.url, person.email, PASSWORD)).toBe(401);
    await signIn(t.url, person.email, NEW_PASSWORD);
  });

  it('throttles wrong current passwords as failed sign-ins', async () => {
    const person = await makeUser(t.url);
    for (let i = 0; i < 10; i++) {
      const wrong = await person.browser.post('/api/v1/auth/password', {
        current_password: `wrong password ${i}`,
        new_password: NEW_PASSWORD,
      });
      expect(wrong.status).toBe(401);
    }
    // The eleventh attempt from this address is refused before any check, the right password too.
    const limited = await person.browser.post('/api/v1/auth/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(await tryLogin(t.url, person.email, PASSWORD)).toBe(429);
  });

  it('needs a browser session and its CSRF value', async () => {
    const person = await makeUser(t.url);
    const { agent } = await makeToken(person);
    const bearer = await agent.post('/api/v1/auth/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(bearer.status).toBe(403);
    expect(bearer.body.error.code).toBe('session_required');
    for (const [method, path, body] of [
      ['POST', '/api/v1/auth/password', { current_password: PASSWORD, new_password: NEW_PASSWORD }],
      ['POST', '/api/v1/auth/email', { email: uniqueEmail(), password: PASSWORD }],
      ['DELETE', '/api/v1/auth/account', { password: PASSWORD }],
    ] as const) {
      const answer = await person.browser.request(method, path, { body, headers: { 'x-csrf-token': 'forged' } });
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code).toBe('csrf_failed');
      const anonymous = new Client(t.url);
      await anonymous.get('/api/v1/auth/me');
      expect((await anonymous.request(method, path, { body })).status, path).toBe(401);
    }
    expect(await signedInAs(person.browser)).toBe(person.user.id);
    await signIn(t.url, person.email);
  });

  it('changes the email: unverified, a verification link mailed to the new address, an email in use is 409', async () => {
    const person = await makeUser(t.url, t.app, { verified: true });
    const someone = await makeUser(t.url);
    const next = uniqueEmail('moved');

    const wrong = await person.browser.post('/api/v1/auth/email', { email: next, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthenticated');
    const taken = await person.browser.post('/api/v1/auth/email', {
      email: someone.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');
    // The same reason as registration's, so the web app words it as "this email is in use".
    expect(taken.body.error.details).toEqual([{ path: '/email', message: 'is taken', reason: 'email_in_use' }]);
    expect((await person.browser.post('/api/v1/auth/email', { email: 'nope', password: PASSWORD })).status).toBe(400);

    const changed = await person.browser.post('/api/v1/auth/email', { email: next.toUpperCase(), password: PASSWORD });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({
      user: expect.objectContaining({ id: person.user.id, email: next, email_verified: false }),
    });
    expect((await person.browser.get('/api/v1/auth/me')).body.user).toMatchObject({
      email: next,
      email_verified: false,
    });
    // The session stays; the old address no longer signs in, the new one does.
    expect(await tryLogin(t.url, person.email, PASSWORD)).toBe(401);
    await signIn(t.url, next);

    const [, token] = await waitForMail(
      smtp.mails,
      next,
      /https:\/\/tasks\.example\.test\/verify\?token=([A-Za-z0-9_-]+)/,
    );
    const verified = await person.browser.post('/api/v1/auth/verify/complete', { token });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.user).toMatchObject({ email: next, email_verified: true });
  });
});

/** Every row that still names the person, table by table (only tables that hold something are listed). */
async function rowsOf(app: App, userId: string): Promise<Record<string, number>> {
  const db = app.deps.db;
  const counts: Record<string, number> = {};
  const count = async (table: string, column: string) => {
    const row = await (db as any)
      .selectFrom(table)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .where(column, '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(row.n) > 0) counts[`${table}.${column}`] = Number(row.n);
  };
  for (const table of [
    'users',
    'sessions',
    'personal_tokens',
    'oauth_grants',
    'mcp_sessions',
    'trees',
    'projects',
    'tasks',
    'attachments',
    'history',
    'agent_call_batches',
    'idempotency_keys',
    'email_verifications',
    'password_resets',
  ])
    await count(table, table === 'users' ? 'id' : 'owner_id');
  await count('members', 'user_id');
  await count('task_assignees', 'user_id');
  await count('comments', 'author_id');
  await count('messages', 'author_id');
  return counts;
}

describe.each(storeMatrix)('deleting an account (%s, %s)', (kind, storeKind) => {
  let store: TestBlobStore;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    store = await startBlobStore(storeKind);
    t = await startTestApp(kind, store.env);
  });
  afterAll(async () => {
    await t?.stop();
    await store?.stop();
  });

  /** Shares `tree` of `owner` with `person` as an editor. */
  async function share(owner: Person, treeId: string, person: Person): Promise<void> {
    const invited = await owner.browser.post(`/api/v1/trees/${treeId}/members`, {
      email: person.email,
      role: 'editor',
    });
    expect(invited.status, invited.text).toBe(201);
    const accepted = await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
      token: inviteToken(invited),
    });
    expect(accepted.status, accepted.text).toBe(200);
  }

  it('removes everything the account owns and leaves its words on trees of others without an author', async () => {
    const alice = await makeUser(t.url, t.app, { plan: 'grove' });
    const bob = await makeUser(t.url, t.app, { plan: 'grove' });
    const aliceAgent = await makeToken(alice);
    const bobAgent = await makeToken(bob);
    await connect(t.url, alice.browser, `${t.url}/api/v1`);
    const mcp = await connectMcp(t.url, aliceAgent.value);

    // Alice's tree, shared with Bob, with a project, tasks, an attachment, a comment by Bob.
    const own = await makeTree(alice.browser, { name: 'Alice garden' });
    const ownProject = await makeProject(alice.browser, own.id);
    const ownTask = await makeTask(alice.browser, own.id, { project_id: ownProject.id });
    expect(
      (
        await upload(alice.browser, `/api/v1/tasks/${ownTask.id}/attachments`, [
          { data: Buffer.from('a'), name: 'a.txt' },
        ])
      ).status,
    ).toBe(201);
    await share(alice, own.id, bob);
    expect((await bob.browser.post(`/api/v1/tasks/${ownTask.id}/comments`, { body: 'Nice beds' })).status).toBe(201);

    // Bob's tree, shared with Alice: she comments, writes a message, is assigned, uploads.
    const bobs = await makeTree(bob.browser, { name: 'Bob orchard' });
    const bobTask = await makeTask(bob.browser, bobs.id, { title: 'Prune' });
    await share(bob, bobs.id, alice);
    const comment = await alice.browser.post(`/api/v1/tasks/${bobTask.id}/comments`, { body: 'I can help' });
    expect(comment.status).toBe(201);
    const message = await alice.browser.post(`/api/v1/trees/${bobs.id}/messages`, { body: 'See you Sunday' });
    expect(message.status).toBe(201);
    const assigned = await bob.browser.put(`/api/v1/tasks/${bobTask.id}/assignees`, {
      user_ids: [alice.user.id, bob.user.id],
    });
    expect(assigned.status, assigned.text).toBe(200);
    const etagBefore = (await bob.browser.get(`/api/v1/tasks/${bobTask.id}`)).headers.get('etag');
    expect(etagBefore).toBeTruthy();
    const bobUpload = await upload(alice.browser, `/api/v1/tasks/${bobTask.id}/attachments`, [
      { data: Buffer.from('b'), name: 'b.txt' },
    ]);
    expect(bobUpload.status).toBe(201);
    // Calls of both agents wait in the journal when the account goes.
    expect((await aliceAgent.agent.get('/api/v1/trees')).status).toBe(200);
    expect((await bobAgent.agent.get('/api/v1/trees')).status).toBe(200);

    const aliceBlobs = (await store.keys(t.env.dataDir)).filter((key) => key.startsWith(`${alice.user.id}/`));
    expect(aliceBlobs).toHaveLength(1);
    expect(await store.keys(t.env.dataDir)).toContain(`${bob.user.id}/${bobUpload.body.attachment.id}`);
    expect(Object.keys(await rowsOf(t.app, alice.user.id)).length).toBeGreaterThan(10);

    const wrong = await alice.browser.delete('/api/v1/auth/account', { body: { password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthenticated');
    expect(await signedInAs(alice.browser)).toBe(alice.user.id);

    const deleted = await alice.browser.delete('/api/v1/auth/account', { body: { password: PASSWORD } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ user: null, csrf: expect.any(String) });

    // Nothing names Alice any more; her blobs are gone, Bob's (on his tree) stay.
    expect(await rowsOf(t.app, alice.user.id)).toEqual({});
    const keys = await store.keys(t.env.dataDir);
    expect(keys.filter((key) => key.startsWith(`${alice.user.id}/`))).toEqual([]);
    expect(keys).toContain(`${bob.user.id}/${bobUpload.body.attachment.id}`);

    // Every credential of hers is dead.
    expect(await signedInAs(alice.browser)).toBeNull();
    expect((await aliceAgent.agent.get('/api/v1/trees')).status).toBe(401);
    await expect(mcp.client.callTool({ name: 'list_trees', arguments: {} })).rejects.toThrow();
    await mcp.close().catch(() => undefined);
    expect(await tryLogin(t.url, alice.email, PASSWORD)).toBe(401);

    // Bob lost her tree at once; on his, her words stay unsigned and her assignment went.
    expect((await bob.browser.get(`/api/v1/trees/${own.id}`)).status).toBe(404);
    expect((await bobAgent.agent.get(`/api/v1/tasks/${ownTask.id}`)).status).toBe(404);
    expect((await bob.browser.get('/api/v1/trees')).body.items.map((x: { id: string }) => x.id)).toEqual([bobs.id]);
    const comments = (await bob.browser.get(`/api/v1/tasks/${bobTask.id}/comments`)).body.items;
    expect(comments).toEqual([
      expect.objectContaining({ id: comment.body.comment.id, body: 'I can help', author_id: null }),
    ]);
    const messages = (await bob.browser.get(`/api/v1/trees/${bobs.id}/messages`)).body.items;
    expect(messages).toEqual([expect.objectContaining({ body: 'See you Sunday', author_id: null })]);
    const task = await bob.browser.get(`/api/v1/tasks/${bobTask.id}`);
    expect(task.body.task.assignee_ids).toEqual([bob.user.id]);
    // The task changed, so a conditional write made against what it was now fails.
    expect(task.headers.get('etag')).not.toBe(etagBefore);
    const members = (await bob.browser.get(`/api/v1/trees/${bobs.id}/members`)).body.items;
    expect(members.filter((m: { status: string }) => m.status !== 'revoked')).toEqual([]);
    // The owner may still remove an unsigned comment; the export carries it.
    const exported = (await bob.browser.get(`/api/v1/trees/${bobs.id}/export`)).body;
    expect(exported.comments).toEqual([expect.objectContaining({ author_id: null })]);
    // Bob's agent call, recorded in the same second as hers, reached the journal.
    const calls = (await bob.browser.get('/api/v1/agent-calls')).body.items;
    expect(calls.some((c: { operation: string }) => c.operation.includes('/trees'))).toBe(true);

    // The address is free again.
    const again = await makeUser(t.url, undefined, { email: alice.email });
    expect(again.user.id).not.toBe(alice.user.id);
    expect((await again.browser.get('/api/v1/trees')).body.items).toEqual([]);
  });
});

describe.each(databases)('deleting an account with billing (%s)', (kind) => {
  let provider: Awaited<ReturnType<typeof startFakeBilling>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    provider = await startFakeBilling();
    t = await startTestApp(kind, { ...billingEnv(provider.url), PUBLIC_URL: 'https://tasks.example.test' });
  });
  afterAll(async () => {
    await t.stop();
    await provider.close();
  });

  it('refuses while a paid subscription is live, and deletes once it has ended', async () => {
    const person = await makeUser(t.url);
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await t.app.deps.db
      .updateTable('users')
      .set({ plan: 'sprout', plan_expires_at: until, billing_customer_id: 'cus_live' })
      .where('id', '=', person.user.id)
      .execute();
    const refused = await person.browser.delete('/api/v1/auth/account', { body: { password: PASSWORD } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toMatch(/subscription/);
    expect(await signedInAs(person.browser)).toBe(person.user.id);
    // The subscription was cancelled: the provider's event set the plan back to Seed.
    await t.app.deps.db
      .updateTable('users')
      .set({ plan: 'seed', plan_expires_at: null })
      .where('id', '=', person.user.id)
      .execute();
    const deleted = await person.browser.delete('/api/v1/auth/account', { body: { password: PASSWORD } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await signedInAs(person.browser)).toBeNull();
  });
});
