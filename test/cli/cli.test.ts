import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { makeUser } from '../helpers/factories.js';
import { cliEnvOf, tasktree, type CliResult } from '../helpers/cli.js';
import { upload } from '../helpers/files.js';

// Each call starts a process that compiles the CLI with tsx: seconds apiece on a busy 2-core machine.
describe.each(databases)('tasktree command-line tool (%s)', { timeout: 120_000 }, (kind) => {
  let env: TestEnv;
  let app: Running;
  let childEnv: Record<string, string>;

  const cli = (...args: string[]): Promise<CliResult> => tasktree(childEnv, ...args);

  beforeAll(async () => {
    env = makeTestEnv(kind);
    app = await startApp(env);
    childEnv = cliEnvOf(env);
  });
  afterAll(async () => {
    await app.close();
    await env.dispose();
  });

  it('creates a user, sets the plan, makes a token that works on the running service, and exports', async () => {
    const created = await cli(
      'user',
      'create',
      '--email',
      'cli@example.test',
      '--password',
      'long enough password',
      '--name',
      'Operator',
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).user).toMatchObject({
      email: 'cli@example.test',
      name: 'Operator',
      plan: 'seed',
    });

    const seedWrite = await cli(
      'token',
      'create',
      '--email',
      'cli@example.test',
      '--name',
      'agent',
      '--scopes',
      'read,write',
    );
    expect(seedWrite.code).not.toBe(0);
    expect(seedWrite.stderr).toContain('plan_read_only');

    const until = new Date(Date.now() + 86_400_000).toISOString();
    const plan = await cli('plan', 'set', '--email', 'cli@example.test', '--plan', 'sprout', '--until', until);
    expect(JSON.parse(plan.stdout).user).toMatchObject({
      plan: 'sprout',
      effective_plan: 'sprout',
      plan_expires_at: until,
    });

    const token = await cli(
      'token',
      'create',
      '--email',
      'cli@example.test',
      '--name',
      'agent',
      '--scopes',
      'read,write',
      '--expires-in-days',
      '7',
    );
    expect(token.code).toBe(0);
    const value = token.stdout.trim();
    expect(value).toMatch(/^ttp_[A-Za-z0-9_-]{43}$/);
    const agent = new Client(app.url).withBearer(value);
    const tree = await makeTree(agent, { name: 'From the shell' });
    await makeTask(agent, tree.id, { title: 'exported' });

    const exported = await cli('export', '--tree', tree.id);
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout);
    const viaRest = (await agent.get(`/api/v1/trees/${tree.id}/export`)).body;
    expect({ ...document, exported_at: null }).toEqual({ ...viaRest, exported_at: null });
    expect(document.history.some((h: any) => h.entity === 'task')).toBe(true);
  });

  it('verifies an email for an invitation (user verify), exports the shared tree as a member, and not once the membership is revoked', async () => {
    const owner = await makeUser(app.url, app.app, { plan: 'grove' });
    const member = await makeUser(app.url, app.app);
    const tree = await makeTree(owner.browser, { name: 'Shared from the shell' });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: member.email,
      role: 'viewer',
    });
    // Registering proved nothing about the address: the invitation reaches the account once the operator vouches for it.
    expect((await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(404);
    const verified = await cli('user', 'verify', '--email', member.email);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).user).toMatchObject({ id: member.user.id, email_verified: true });
    expect((await member.browser.get('/api/v1/invitations')).body.items.map((x: any) => x.id)).toEqual([
      invited.body.member.id,
    ]);
    expect((await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`)).status).toBe(200);
    const shared = await cli('export', '--tree', tree.id, '--as-user', member.email);
    expect(shared.code).toBe(0);
    expect(JSON.parse(shared.stdout).tree).toMatchObject({ id: tree.id, access: 'viewer' });
    await owner.browser.delete(`/api/v1/members/${invited.body.member.id}`);
    const revoked = await cli('export', '--tree', tree.id, '--as-user', member.email);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain('not_found');
  });

  it('exports the comments, messages and attachments of a tree, as REST does', async () => {
    const owner = await makeUser(app.url, app.app, { plan: 'grove' });
    const tree = await makeTree(owner.browser, { name: 'Every list' });
    const task = await makeTask(owner.browser, tree.id, { title: 'talked about' });
    const comment = (await owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'a comment' })).body.comment;
    const message = (await owner.browser.post(`/api/v1/trees/${tree.id}/messages`, { body: 'a message' })).body.message;
    const attachment = (
      await upload(owner.browser, `/api/v1/tasks/${task.id}/attachments`, [
        { data: Buffer.from('some notes'), name: 'notes.txt', type: 'text/plain' },
      ])
    ).body.attachment;
    const exported = await cli('export', '--tree', tree.id);
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout);
    // The command reads these lists through the domain alone (it loads no HTTP code: cli-modules.test.ts).
    expect(document.comments.map((c: any) => c.id)).toEqual([comment.id]);
    expect(document.messages.map((m: any) => m.id)).toEqual([message.id]);
    expect(document.attachments.map((a: any) => a.id)).toEqual([attachment.id]);
    const viaRest = (await owner.browser.get(`/api/v1/trees/${tree.id}/export`)).body;
    expect({ ...document, exported_at: null }).toEqual({ ...viaRest, exported_at: null });
  });

  it('limits a token to the trees given with --trees (CONTRACT §16.1), and refuses trees the account cannot see', async () => {
    const person = await makeUser(app.url, app.app, { plan: 'sprout' });
    const kept = await makeTree(person.browser, { name: 'Kept' });
    const hidden = await makeTree(person.browser, { name: 'Hidden' });
    const hiddenTask = await makeTask(person.browser, hidden.id, { title: 'unseen' });
    const token = await cli('token', 'create', '--email', person.email, '--name', 'scoped', '--trees', kept.id);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stderr).toContain(`trees ${kept.id}`);
    const agent = new Client(app.url).withBearer(token.stdout.trim());
    expect((await agent.get('/api/v1/trees')).body.items.map((x: any) => x.id)).toEqual([kept.id]);
    expect((await agent.get(`/api/v1/tasks/${hiddenTask.id}`)).status).toBe(404);
    const listed = JSON.parse((await cli('token', 'list', '--email', person.email, '--json')).stdout);
    expect(listed.items[0].tree_ids).toEqual([kept.id]);

    const foreign = await cli('token', 'create', '--email', person.email, '--name', 'x', '--trees', 'tre_unknown');
    expect(foreign.code).not.toBe(0);
    expect(foreign.stderr).toContain('not_found');
    const repeated = await cli(
      'token',
      'create',
      '--email',
      person.email,
      '--name',
      'x',
      '--trees',
      `${kept.id},${kept.id}`,
    );
    expect(repeated.code).not.toBe(0);
    expect(repeated.stderr).toContain('validation_failed');
  });

  it('reports errors on stderr with a non-zero exit', async () => {
    const missing = await cli('plan', 'set', '--email', 'nobody@example.test', '--plan', 'grove');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('not_found');
    const badPlan = await cli('plan', 'set', '--email', 'cli@example.test', '--plan', 'gold');
    expect(badPlan.stderr).toContain('validation_failed');
    const shortPassword = await cli('user', 'create', '--email', 'x@example.test', '--password', 'short');
    expect(shortPassword.code).not.toBe(0);
    expect(shortPassword.stderr).toContain('/password');
    expect((await cli('export', '--tree', 'tre_unknown')).stderr).toContain('not_found');
    expect((await cli('migrate')).stdout).toContain('up to date');
  });
  it('prints a one-time password reset link whose token completes a reset once', async () => {
    expect(
      (await cli('user', 'create', '--email', 'forgot@example.test', '--password', 'long enough password')).code,
    ).toBe(0);
    const printed = await cli('user', 'reset-link', '--email', 'forgot@example.test');
    expect(printed.code).toBe(0);
    const link = new URL(printed.stdout.trim());
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const browser = new Client(app.url);
    await browser.get('/api/v1/auth/me');
    const reset = await browser.post('/api/v1/auth/reset/complete', {
      token: link.searchParams.get('token'),
      password: 'a brand new password',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.user.email).toBe('forgot@example.test');
    expect(
      (
        await browser.post('/api/v1/auth/reset/complete', {
          token: link.searchParams.get('token'),
          password: 'a brand new password',
        })
      ).status,
    ).toBe(400);
    const unknown = await cli('user', 'reset-link', '--email', 'nobody@example.test');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('not_found');
  });
});
