import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { inviteToken, makeToken, makeUser, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { connect } from '../helpers/oauth.js';
import { download, upload } from '../helpers/files.js';
import { startValidatingProxy } from '../helpers/validating-proxy.js';
import { startFakeSmtp, waitForMail } from '../helpers/fake-smtp.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';
import { billingEnv, checkoutCompleted, signEvent, startFakeBilling } from '../helpers/fake-billing.js';

/** The reset token of the latest mail to `email`. */
async function resetTokenFor(smtp: Awaited<ReturnType<typeof startFakeSmtp>>, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = smtp.mails.find((m) => m.to.includes(email));
    if (mail !== undefined)
      return /POST \/api\/v1\/auth\/reset\/complete: ([A-Za-z0-9_-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail for ${email}`);
}

/** The token of the latest verification mail to `email`. */
async function verifyTokenFor(smtp: Awaited<ReturnType<typeof startFakeSmtp>>, email: string): Promise<string> {
  return (await waitForMail(smtp.mails, email, /\/verify\?token=([A-Za-z0-9_-]+)/))[1]!;
}

/**
 * Issue 13 point 9: a session over every documented operation, successes and failures, through a
 * proxy that checks each answer against the document the app serves. Any undeclared status,
 * content type, header or body shape fails the test, and so does an operation left unexercised.
 */
describe.each(databases)('answers conform to the OpenAPI document (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let proxy: Awaited<ReturnType<typeof startValidatingProxy>>;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let speech: Awaited<ReturnType<typeof startFakeSpeech>>;
  let billing: Awaited<ReturnType<typeof startFakeBilling>>;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    speech = await startFakeSpeech(['ok']);
    billing = await startFakeBilling();
    t = await startTestApp(kind, {
      ...billingEnv(billing.url),
      RATE_LIMIT_PER_MINUTE: '400',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Task Tree <reset@tasktree.test>',
      SPEECH_API_URL: speech.url,
      SPEECH_API_KEY: 'sk-test',
    });
    proxy = await startValidatingProxy(t.url);
  });
  afterAll(async () => {
    await proxy.close();
    await t.stop();
    await speech.close();
    await billing.close();
    await smtp.close();
  });

  it('runs a scripted session with no mismatch', async () => {
    const base = proxy.url;
    const expectStatus = (answer: { status: number }, status: number, what: string) =>
      expect(answer.status, what).toBe(status);

    // Service endpoints and the anonymous browser.
    expectStatus(await new Client(base).get('/healthz'), 200, 'healthz');
    expectStatus(await new Client(base).get('/readyz'), 200, 'readyz');
    const stranger = new Client(base);
    expectStatus(await stranger.get('/api/v1/auth/me'), 200, 'anonymous me');
    expectStatus(
      await new Client(base).post('/api/v1/auth/login', { email: 'x@example.test', password: PASSWORD }),
      403,
      'login without a session',
    );

    // Accounts.
    const alice = await makeUser(base, t.app, { plan: 'sprout' });
    const browser = alice.browser;
    expectStatus(await browser.get('/api/v1/auth/me'), 200, 'me');
    const etag = (await browser.get('/api/v1/auth/me')).headers.get('etag')!;
    expectStatus(await browser.get('/api/v1/auth/me', { headers: { 'if-none-match': etag } }), 304, 'me revalidated');
    expectStatus(
      await browser.get('/api/v1/auth/me', { headers: { 'x-service-user': 'usr_someone_else' } }),
      409,
      'me, wrong account',
    );
    expectStatus(
      await stranger.post('/api/v1/auth/register', { email: alice.email, password: PASSWORD }),
      409,
      'email taken',
    );
    expectStatus(
      await stranger.post('/api/v1/auth/register', { email: 'not-an-email', password: PASSWORD }),
      400,
      'bad register',
    );
    expectStatus(
      await stranger.post('/api/v1/auth/login', { email: alice.email, password: 'wrong password!' }),
      401,
      'wrong password',
    );
    expectStatus(await browser.patch('/api/v1/auth/profile', { timezone: 'Europe/Berlin' }), 200, 'profile');
    expectStatus(await browser.patch('/api/v1/auth/profile', { bogus: 1 }), 400, 'bad profile');
    expectStatus(await stranger.patch('/api/v1/auth/profile', { name: 'x' }), 401, 'profile signed out');
    expectStatus(
      await stranger.post('/api/v1/auth/reset/request', { email: 'not-an-email' }),
      400,
      'reset request, bad email',
    );
    const carol = await makeUser(base);
    expectStatus(await stranger.post('/api/v1/auth/reset/request', { email: carol.email }), 202, 'reset request');
    expectStatus(
      await stranger.post('/api/v1/auth/reset/complete', { token: 'nope', password: PASSWORD }),
      400,
      'reset with a bad token',
    );
    // Completing signs that browser in: a browser of its own.
    const resetting = new Client(base);
    await resetting.get('/api/v1/auth/me');
    expectStatus(
      await resetting.post('/api/v1/auth/reset/complete', {
        token: await resetTokenFor(smtp, carol.email),
        password: PASSWORD,
      }),
      200,
      'reset',
    );
    const bob = new Client(base);
    await bob.get('/api/v1/auth/me');
    expectStatus(
      await bob.post('/api/v1/auth/register', { email: uniqueEmail(), password: PASSWORD }),
      201,
      'register',
    );
    expectStatus(
      await bob.request('POST', '/api/v1/auth/logout', { headers: { 'x-csrf-token': 'forged' } }),
      403,
      'logout without CSRF',
    );
    expectStatus(await bob.post('/api/v1/auth/logout'), 200, 'logout');
    expectStatus(await bob.post('/api/v1/auth/login', { email: alice.email, password: PASSWORD }), 200, 'login');

    // Personal tokens (session only).
    const { agent, token } = await makeToken(alice);
    expectStatus(await browser.get('/api/v1/tokens'), 200, 'tokens');
    expectStatus(await agent.get('/api/v1/tokens'), 403, 'tokens with a Bearer token');
    expectStatus(
      await browser.post('/api/v1/tokens', { name: 'x' }, { headers: { 'idempotency-key': 'key-00000001' } }),
      400,
      'token with Idempotency-Key',
    );
    const spare = await makeToken(alice, { name: 'spare', scopes: ['read'] });
    expectStatus(await browser.delete(`/api/v1/tokens/${spare.token.id}`), 200, 'revoke');
    expectStatus(await browser.delete('/api/v1/tokens/pat_unknown'), 404, 'revoke unknown');
    // OAuth connections (session only): one made through the real flow, straight at the app.
    const direct = new Client(t.url);
    for (const [name, value] of browser.cookies) direct.cookies.set(name, value);
    await connect(t.url, direct, `${t.url}/api/v1`);
    const connections = await browser.get('/api/v1/oauth/connections');
    expectStatus(connections, 200, 'connections');
    expectStatus(await agent.get('/api/v1/oauth/connections'), 403, 'connections with a Bearer token');
    expectStatus(
      await browser.delete(`/api/v1/oauth/connections/${connections.body.items[0].id}`),
      200,
      'revoke connection',
    );
    expectStatus(
      await browser.delete(`/api/v1/oauth/connections/${connections.body.items[0].id}`),
      404,
      'revoke connection again',
    );
    expectStatus(await agent.get('/api/v1/auth/me'), 200, 'me with a Bearer token');
    expectStatus(await agent.get('/api/v1/agent-calls'), 403, 'journal with a Bearer token');
    expectStatus(await browser.get('/api/v1/agent-calls'), 200, 'journal');

    // Trees.
    expectStatus(await stranger.get('/api/v1/trees'), 401, 'trees signed out');
    const tree = await agent.post('/api/v1/trees', { name: 'Orchard' });
    expectStatus(tree, 201, 'create tree');
    const treeId = tree.body.tree.id as string;
    expectStatus(await agent.post('/api/v1/trees', { name: '' }), 400, 'bad tree');
    expectStatus(
      await agent.request('POST', '/api/v1/trees', { raw: 'name=x', contentType: 'text/plain' }),
      415,
      'tree as text',
    );
    expectStatus(
      await agent.request('POST', '/api/v1/trees', { raw: '{"name":', contentType: 'application/json' }),
      400,
      'broken JSON',
    );
    const trees = await agent.get('/api/v1/trees');
    expectStatus(trees, 200, 'trees');
    expectStatus(
      await agent.get('/api/v1/trees', { headers: { 'if-none-match': trees.headers.get('etag')! } }),
      304,
      'trees revalidated',
    );
    expectStatus(await agent.get(`/api/v1/trees/${treeId}`), 200, 'tree snapshot');
    expectStatus(await agent.get('/api/v1/trees/tre_unknown'), 404, 'unknown tree');
    expectStatus(await agent.get(`/api/v1/tree-shapes?ids=${treeId},tre_unknown`), 200, 'tree shapes');
    expectStatus(await agent.get(`/api/v1/tree-shapes?ids=${treeId},${treeId}`), 400, 'tree shapes repeated');
    const restyled = await agent.patch(`/api/v1/trees/${treeId}`, { style: 'lsystem' });
    expectStatus(restyled, 200, 'rename tree');
    const staleTree = { headers: { 'if-match': trees.headers.get('etag')! } };
    expectStatus(await agent.patch(`/api/v1/trees/${treeId}`, { name: 'x' }, staleTree), 412, 'tree changed meanwhile');
    const treeTag = { headers: { 'if-match': restyled.headers.get('etag')! } };
    expectStatus(await agent.patch(`/api/v1/trees/${treeId}`, { style: 'lsystem' }, treeTag), 200, 'tree unchanged');
    expectStatus(await agent.patch(`/api/v1/trees/${treeId}`, { style: 'oak' }), 400, 'bad style');
    expectStatus(await agent.get(`/api/v1/trees/${treeId}/export`), 200, 'export');
    expectStatus(await agent.get('/api/v1/trees/tre_unknown/export'), 404, 'export unknown');

    // Projects.
    const parent = await agent.post('/api/v1/projects', { tree_id: treeId, name: 'Roots' });
    expectStatus(parent, 201, 'create project');
    const parentId = parent.body.project.id as string;
    const child = await agent.post('/api/v1/projects', { tree_id: treeId, name: 'Rootlets', parent_id: parentId });
    expectStatus(
      await agent.post('/api/v1/projects', { tree_id: 'tre_unknown', name: 'x' }),
      404,
      'project in an unknown tree',
    );
    expectStatus(await agent.get(`/api/v1/projects?tree_id=${treeId}`), 200, 'projects');
    expectStatus(await agent.get('/api/v1/projects?tree_id=tre_unknown'), 404, 'projects of an unknown tree');
    expectStatus(await agent.get(`/api/v1/projects/${parentId}`), 200, 'project');
    expectStatus(await agent.get('/api/v1/projects/prj_unknown'), 404, 'unknown project');
    expectStatus(await agent.patch(`/api/v1/projects/${parentId}`, { parent_id: child.body.project.id }), 409, 'cycle');
    expectStatus(await agent.patch(`/api/v1/projects/${parentId}`, { color: '#123456' }), 200, 'change project');
    expectStatus(
      await agent.delete(`/api/v1/projects/${parentId}`, { headers: { 'if-match': parent.headers.get('etag')! } }),
      412,
      'project changed meanwhile',
    );
    expectStatus(await agent.delete(`/api/v1/projects/${parentId}`), 409, 'delete a parent');
    expectStatus(await agent.delete(`/api/v1/projects/${parentId}?cascade=true`), 200, 'cascade delete');

    // Tasks, search and idempotency.
    const created = await agent.post(
      '/api/v1/tasks',
      { tree_id: treeId, title: 'Prune the apple tree', notes: 'before spring' },
      { headers: { 'idempotency-key': 'task-0000001' } },
    );
    expectStatus(created, 201, 'create task');
    const replay = await agent.post(
      '/api/v1/tasks',
      { tree_id: treeId, title: 'Prune the apple tree', notes: 'before spring' },
      { headers: { 'idempotency-key': 'task-0000001' } },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectStatus(
      await agent.post(
        '/api/v1/tasks',
        { tree_id: treeId, title: 'other' },
        { headers: { 'idempotency-key': 'task-0000001' } },
      ),
      409,
      'key reused',
    );
    const taskId = created.body.task.id as string;
    expectStatus(
      await agent.post('/api/v1/tasks', { tree_id: treeId, title: 'x', position: 2_147_483_648 }),
      400,
      'position too far',
    );
    expectStatus(await agent.get(`/api/v1/tasks?tree_id=${treeId}&limit=1`), 200, 'tasks');
    expectStatus(await agent.get('/api/v1/tasks?cursor=forged'), 400, 'forged cursor');
    expectStatus(await agent.get(`/api/v1/tasks/${taskId}`), 200, 'task');
    expectStatus(await agent.get('/api/v1/tasks/tsk_unknown'), 404, 'unknown task');
    const taskDone = await agent.patch(`/api/v1/tasks/${taskId}`, { status: 'done' });
    expectStatus(taskDone, 200, 'complete task');
    const staleTask = { headers: { 'if-match': created.headers.get('etag')! } };
    expectStatus(
      await agent.patch(`/api/v1/tasks/${taskId}`, { title: 'x' }, staleTask),
      412,
      'task changed meanwhile',
    );
    expectStatus(
      await agent.patch(
        `/api/v1/tasks/${taskId}`,
        { notes: 'now' },
        { headers: { 'if-match': taskDone.headers.get('etag')! } },
      ),
      200,
      'task unchanged meanwhile',
    );
    expectStatus(await agent.patch(`/api/v1/tasks/${taskId}`, { status: 'doing' }), 400, 'bad status');
    expectStatus(
      await agent.post('/api/v1/tasks/batch', { create: [{ tree_id: treeId, title: 'batched' }] }),
      200,
      'batch',
    );
    expectStatus(await agent.post('/api/v1/tasks/batch', { create: [{ tree_id: treeId }] }), 400, 'batch bad item');
    expectStatus(
      await agent.post('/api/v1/tasks/batch', { update: [{ id: taskId, version: 1, notes: 'late' }] }),
      412,
      'batch stale item',
    );
    expectStatus(await agent.get('/api/v1/search?q=apple'), 200, 'search');
    expectStatus(await agent.get('/api/v1/search'), 400, 'search without q');
    const seedling = await makeUser(base);
    const seedAgent = (await makeToken(seedling)).agent;
    expectStatus(await seedAgent.post('/api/v1/tasks', { tree_id: treeId, title: 'x' }), 403, 'write on Seed');

    // Attachments.
    const uploaded = await upload(agent, `/api/v1/tasks/${taskId}/attachments`, [
      { data: Buffer.from('hello, orchard'), name: 'note.txt', type: 'text/plain' },
    ]);
    expectStatus(uploaded, 201, 'upload');
    const attachmentId = uploaded.body.attachment.id as string;
    expectStatus(await upload(agent, `/api/v1/tasks/${taskId}/attachments`, []), 400, 'upload without a file');
    expectStatus(
      await upload(agent, '/api/v1/tasks/tsk_unknown/attachments', [{ data: Buffer.from('x') }]),
      404,
      'upload to an unknown task',
    );
    expectStatus(await agent.get(`/api/v1/tasks/${taskId}/attachments`), 200, 'attachments');
    expectStatus(await agent.get('/api/v1/tasks/tsk_unknown/attachments'), 404, 'attachments of an unknown task');
    const link = await agent.get(`/api/v1/attachments/${attachmentId}`);
    expectStatus(link, 200, 'attachment');
    expectStatus(await agent.get('/api/v1/attachments/att_unknown'), 404, 'unknown attachment');
    const contentPath = `/api/v1/attachments/${attachmentId}/content`;
    expectStatus(await download(agent, `${base}${contentPath}`), 200, 'content');
    expectStatus(await download(agent, `${base}${contentPath}`, { range: 'bytes=0-4' }), 206, 'a range');
    expectStatus(await download(agent, `${base}${contentPath}`, { range: 'bytes=100-' }), 416, 'a range outside');
    expectStatus(await download(null, `${base}${contentPath}`), 401, 'content without credentials');
    const signed = new URL(link.body.content_url);
    expectStatus(await download(null, `${base}${signed.pathname}${signed.search}`), 200, 'signed link');
    expectStatus(await download(null, `${base}${contentPath}?expires=1&signature=forged`), 401, 'forged link');
    expectStatus(await agent.delete(`/api/v1/attachments/${attachmentId}`), 200, 'delete attachment');
    expectStatus(await agent.delete(`/api/v1/attachments/${attachmentId}`), 404, 'delete it again');

    // Speech, through a fake provider.
    expectStatus(await agent.get('/api/v1/speech/status'), 200, 'speech status');
    expectStatus(await stranger.get('/api/v1/speech/status'), 401, 'speech status signed out');
    const job = await upload(agent, `/api/v1/tasks/${taskId}/transcriptions`, [
      { data: Buffer.from('RIFF....WAVEfmt '), name: 'memo.wav', type: 'audio/wav' },
    ]);
    expectStatus(job, 202, 'transcribe');
    expectStatus(
      await agent.post(`/api/v1/tasks/${taskId}/transcriptions`, { attachment_id: 'att_unknown' }),
      404,
      'transcribe an unknown attachment',
    );
    expectStatus(await agent.get(`/api/v1/tasks/${taskId}/transcriptions`), 200, 'transcriptions');
    expectStatus(await agent.get('/api/v1/tasks/tsk_unknown/transcriptions'), 404, 'transcriptions of an unknown task');
    expectStatus(await agent.get(`/api/v1/speech/jobs/${job.body.job.id}`), 200, 'job');
    expectStatus(await agent.get('/api/v1/speech/jobs/spj_unknown'), 404, 'unknown job');

    // Billing, through a fake provider and webhooks signed by the provider SDK's test helper.
    expectStatus(await browser.get('/api/v1/billing'), 200, 'billing');
    expectStatus(await agent.get('/api/v1/billing'), 403, 'billing with a Bearer token');
    expectStatus(await browser.post('/api/v1/billing/portal'), 409, 'portal before a purchase');
    expectStatus(await browser.post('/api/v1/billing/checkout', { plan: 'grove' }), 200, 'checkout');
    expectStatus(await browser.post('/api/v1/billing/checkout', { plan: 'seed' }), 400, 'checkout of Seed');
    const completed = signEvent(checkoutCompleted(alice.user.id, 'cus_conformance'));
    const hook = (signature: string) =>
      new Client(base).request('POST', '/api/v1/billing/webhook', {
        raw: completed.body,
        headers: { 'stripe-signature': signature },
      });
    expectStatus(await hook('t=1,v1=forged'), 400, 'webhook with a bad signature');
    expectStatus(await hook(completed.signature), 200, 'webhook');
    expectStatus(await browser.post('/api/v1/billing/portal'), 200, 'portal');

    // Teams: members, invitations, assignees, comments, messages, history and CSV import.
    await setUserPlan(t.app.deps, alice.email, 'grove', null);
    const dora = await makeUser(base, t.app, { plan: 'sprout' });
    const invited = await agent.post(`/api/v1/trees/${treeId}/members`, { email: dora.email, role: 'editor' });
    expectStatus(invited, 201, 'invite');
    const memberId = invited.body.member.id as string;
    expectStatus(
      await agent.post(`/api/v1/trees/${treeId}/members`, { email: dora.email, role: 'editor' }),
      409,
      'invite twice',
    );
    expectStatus(await agent.get(`/api/v1/trees/${treeId}/members`), 200, 'members');
    expectStatus(await agent.get('/api/v1/trees/tre_unknown/members'), 404, 'members of an unknown tree');
    expectStatus(await dora.browser.get('/api/v1/invitations'), 200, 'invitations');
    expectStatus(await stranger.get('/api/v1/invitations'), 401, 'invitations signed out');
    expectStatus(
      await dora.browser.post('/api/v1/invitations/mbr_unknown/accept'),
      404,
      'accept an unknown invitation',
    );
    expectStatus(
      await dora.browser.post(`/api/v1/invitations/${memberId}/accept`, { token: 1 }),
      400,
      'accept with a bad token',
    );
    expectStatus(
      await agent.post(`/api/v1/invitations/${memberId}/accept`, { token: inviteToken(invited) }),
      409,
      "accept your own tree's link",
    );
    expectStatus(
      await dora.browser.post(`/api/v1/invitations/${memberId}/accept`, { token: inviteToken(invited) }),
      200,
      'accept with the link',
    );
    expectStatus(await agent.patch(`/api/v1/members/${memberId}`, { role: 'viewer' }), 200, 'change role');
    expectStatus(await agent.patch(`/api/v1/members/${memberId}`, { role: 'admin' }), 400, 'bad role');
    expectStatus(await agent.put(`/api/v1/tasks/${taskId}/assignees`, { user_ids: [dora.user.id] }), 200, 'assign');
    expectStatus(
      await agent.put(`/api/v1/tasks/${taskId}/assignees`, { user_ids: ['usr_unknown'] }),
      400,
      'assign a stranger',
    );
    const comment = await agent.post(`/api/v1/tasks/${taskId}/comments`, { body: 'Use the long ladder' });
    expectStatus(comment, 201, 'comment');
    const commentId = comment.body.comment.id as string;
    expectStatus(await agent.post(`/api/v1/tasks/${taskId}/comments`, { body: '' }), 400, 'empty comment');
    expectStatus(await agent.get(`/api/v1/tasks/${taskId}/comments`), 200, 'comments');
    expectStatus(await agent.get('/api/v1/tasks/tsk_unknown/comments'), 404, 'comments of an unknown task');
    expectStatus(
      await agent.patch(`/api/v1/comments/${commentId}`, { body: 'Use the short ladder' }),
      200,
      'edit comment',
    );
    expectStatus(await dora.browser.patch(`/api/v1/comments/${commentId}`, { body: 'no' }), 403, 'edit as a viewer');
    expectStatus(await agent.delete(`/api/v1/comments/${commentId}`), 200, 'delete comment');
    expectStatus(await agent.delete(`/api/v1/comments/${commentId}`), 404, 'delete comment again');
    expectStatus(await agent.post(`/api/v1/trees/${treeId}/messages`, { body: 'Harvest on Saturday' }), 201, 'message');
    expectStatus(
      await dora.browser.post(`/api/v1/trees/${treeId}/messages`, { body: 'me too' }),
      403,
      'message as a viewer',
    );
    expectStatus(await agent.get(`/api/v1/trees/${treeId}/messages`), 200, 'messages');
    expectStatus(await agent.get('/api/v1/trees/tre_unknown/messages'), 404, 'messages of an unknown tree');
    expectStatus(await agent.get(`/api/v1/trees/${treeId}/history`), 200, 'history');
    expectStatus(await agent.get('/api/v1/trees/tre_unknown/history'), 404, 'history of an unknown tree');
    const csv = (raw: string, query = '') =>
      agent.request('POST', `/api/v1/trees/${treeId}/import${query}`, { raw, contentType: 'text/csv' });
    expectStatus(await csv('title\nGraft\n', '?dry_run=true'), 200, 'import, dry run');
    expectStatus(await csv('title\nGraft\n'), 201, 'import');
    expectStatus(await csv('title,bogus\nx,y\n'), 400, 'import a bad file');
    // Changes and undo: the import is one change; undone, then its undo undone (redo).
    const imported = await csv('title\nUndone\n');
    const reverted = await agent.post(`/api/v1/changes/${imported.headers.get('change-id')}/revert`);
    expectStatus(reverted, 200, 'revert a change');
    expectStatus(await agent.post(`/api/v1/changes/${reverted.body.change_id}/revert?force=true`), 200, 'redo');
    expectStatus(await agent.post('/api/v1/changes/chg_unknown/revert'), 404, 'revert an unknown change');
    const since = { credential_id: token.id, since: '2020-01-01T00:00:00Z' };
    expectStatus(
      await agent.post(`/api/v1/trees/${treeId}/revert`, { ...since, since: 'yesterday' }),
      400,
      'revert since no time',
    );
    expectStatus(
      await agent.post(`/api/v1/trees/${treeId}/revert`, { ...since, credential_id: 'pat_none' }),
      200,
      'revert nothing',
    );
    expectStatus(await agent.delete(`/api/v1/members/${memberId}`), 200, 'revoke member');
    expectStatus(await agent.delete('/api/v1/members/mbr_unknown'), 404, 'revoke an unknown member');
    // Email verification: an invitation to a verified email reaches the account without its link.
    const declining = await makeUser(base, t.app);
    const second = await agent.post(`/api/v1/trees/${treeId}/members`, { email: declining.email, role: 'viewer' });
    expectStatus(
      await declining.browser.post(`/api/v1/invitations/${second.body.member.id}/decline`),
      404,
      'decline before verifying',
    );
    expectStatus(await stranger.post('/api/v1/auth/verify/request'), 401, 'verify request signed out');
    expectStatus(await agent.post('/api/v1/auth/verify/request'), 403, 'verify request with a Bearer token');
    expectStatus(await declining.browser.post('/api/v1/auth/verify/request'), 202, 'verify request');
    expectStatus(
      await declining.browser.post('/api/v1/auth/verify/complete', { token: 'nope' }),
      400,
      'verify with a bad token',
    );
    expectStatus(await stranger.post('/api/v1/auth/verify/complete', { token: 'nope' }), 401, 'verify signed out');
    expectStatus(
      await declining.browser.post('/api/v1/auth/verify/complete', {
        token: await verifyTokenFor(smtp, declining.email),
      }),
      200,
      'verify',
    );
    expectStatus(await declining.browser.post('/api/v1/auth/verify/request'), 409, 'verify request when verified');
    expectStatus(await declining.browser.post(`/api/v1/invitations/${second.body.member.id}/decline`), 200, 'decline');
    expectStatus(
      await declining.browser.post(`/api/v1/invitations/${second.body.member.id}/decline`),
      404,
      'decline again',
    );

    // The account's own changes (CONTRACT §18): password, email, and the account itself.
    const leaving = await makeUser(base, t.app);
    expectStatus(
      await leaving.browser.post('/api/v1/auth/password', {
        current_password: 'wrong password!',
        new_password: 'x'.repeat(12),
      }),
      401,
      'password change, wrong current password',
    );
    expectStatus(
      await leaving.browser.post('/api/v1/auth/password', { current_password: PASSWORD, new_password: 'short' }),
      400,
      'password change, short',
    );
    expectStatus(
      await leaving.browser.post('/api/v1/auth/password', { current_password: PASSWORD, new_password: PASSWORD + '!' }),
      200,
      'password change',
    );
    expectStatus(
      await leaving.browser.post('/api/v1/auth/email', { email: alice.email, password: PASSWORD + '!' }),
      409,
      'email change, taken',
    );
    expectStatus(
      await leaving.browser.post('/api/v1/auth/email', { email: uniqueEmail('moved'), password: PASSWORD + '!' }),
      200,
      'email change',
    );
    expectStatus(
      await agent.delete('/api/v1/auth/account', { body: { password: PASSWORD } }),
      403,
      'delete with a token',
    );
    expectStatus(
      await leaving.browser.delete('/api/v1/auth/account', { body: { password: PASSWORD } }),
      401,
      'delete, wrong password',
    );
    expectStatus(
      await leaving.browser.delete('/api/v1/auth/account', { body: { password: PASSWORD + '!' } }),
      200,
      'delete account',
    );

    // Deletes last; then a burst past the rate limit.
    expectStatus(await agent.delete(`/api/v1/tasks/${taskId}`), 200, 'delete task');
    expectStatus(await agent.delete(`/api/v1/tasks/${taskId}`), 404, 'delete task again');
    expectStatus(await agent.delete(`/api/v1/trees/${treeId}`), 200, 'delete tree');
    expectStatus(await agent.delete(`/api/v1/trees/${treeId}`), 404, 'delete tree again');
    let limited = await agent.get('/api/v1/trees');
    while (limited.status !== 429) limited = await agent.get('/api/v1/trees');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(token.status).toBe('active');

    expect(proxy.mismatches).toEqual([]);
    // Every documented operation answered at least once, and every one with a success and a failure.
    const operations = Object.entries<any>(proxy.document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const unexercised = operations.filter((operation) => {
      const statuses = [...(proxy.validator.seen.get(operation) ?? [])];
      const failures = operation.endsWith('z') ? 1 : statuses.filter((status) => status >= 400).length;
      return !statuses.some((status) => status < 400) || failures === 0;
    });
    expect(unexercised).toEqual([]);
  });
});
