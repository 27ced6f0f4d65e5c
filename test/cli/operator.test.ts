import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { cliEnvOf, tasktree, type CliResult } from '../helpers/cli.js';
import { makeToken, makeUser, uniqueEmail } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, rawMcp } from '../helpers/mcp.js';
import { sha256 } from '../../src/domain/crypto.js';

const listTools = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

// The operator's commands, each as its own process against the store a running app serves.
describe.each(databases)('tasktree operator commands (%s)', { timeout: 180_000 }, (kind) => {
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

  it('prints its version and tells usage (2) from failure (1)', async () => {
    const version = await cli('--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    expect((await cli('no-such-command')).code).toBe(2);
    const missing = await cli('token', 'revoke');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--id');
    expect((await cli('user', 'list', '--limit', '0')).code).toBe(2);
    const unknown = await cli('token', 'revoke', '--id', 'pat_unknown');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
  });

  it('lists accounts a page at a time, and all of them', async () => {
    const emails = [uniqueEmail('list'), uniqueEmail('list'), uniqueEmail('list')];
    for (const email of emails) await makeUser(app.url, app.app, { email });
    const all = JSON.parse((await cli('user', 'list', '--all', '--json')).stdout);
    const listed: string[] = all.items.map((u: any) => u.email);
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(emails));
    expect(all.next_after).toBeNull();
    expect(all.items[0]).toMatchObject({ id: expect.any(String), plan: 'seed', effective_plan: 'seed', trees: 0 });

    const first = JSON.parse((await cli('user', 'list', '--limit', '2', '--json')).stdout);
    expect(first.items.map((u: any) => u.email)).toEqual(listed.slice(0, 2));
    expect(first.next_after).toBe(listed[1]);
    const second = await cli('user', 'list', '--limit', '2', '--after', first.next_after);
    expect(second.code).toBe(0);
    const lines = second.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+ID\s+PLAN\s+EFFECTIVE\s+TREES\s+CREATED$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(listed.slice(2, 4));
  });

  it('shows one account with counts and credential summaries, and never a secret or a note', async () => {
    const person = await makeUser(app.url, app.app, { plan: 'sprout' });
    const tree = await makeTree(person.browser, { name: 'Garden' });
    await makeTask(person.browser, tree.id, { title: 'water', notes: 'private-note-text-42' });
    await makeTask(person.browser, tree.id, { title: 'weed' });
    const used = await makeToken(person, { name: 'used one' });
    expect((await used.agent.get('/api/v1/trees')).status).toBe(200);
    const gone = await makeToken(person, { name: 'gone' });
    expect((await person.browser.delete(`/api/v1/tokens/${gone.token.id}`)).status).toBe(200);

    const shown = await cli('user', 'show', '--email', person.email, '--json');
    expect(shown.code).toBe(0);
    const summary = JSON.parse(shown.stdout);
    expect(summary.user).toMatchObject({ email: person.email, plan: 'sprout', effective_plan: 'sprout' });
    expect(summary.owns).toEqual({ trees: 1, projects: 0, tasks: 2, attachments: 0, attachment_bytes: 0 });
    expect(summary.tokens).toMatchObject({ active: 1, expired: 0, revoked: 1, last_used_at: expect.any(String) });
    expect(summary.sessions.active).toBe(1);
    const table = await cli('user', 'show', '--email', person.email);
    expect(table.stdout).toMatch(/^owns\.tasks:\s+2$/m);
    expect(table.stdout).toMatch(/^tokens\.revoked:\s+1$/m);
    const row = await app.app.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', person.email)
      .executeTakeFirstOrThrow();
    for (const output of [shown.stdout + shown.stderr, table.stdout + table.stderr]) {
      for (const secret of [
        used.value,
        sha256(used.value),
        used.value.slice(4),
        row.password_hash,
        'private-note-text-42',
      ])
        expect(output).not.toContain(secret);
    }
    expect((await cli('user', 'show', '--email', 'nobody@example.test')).code).toBe(1);
  });

  it("lists an account's tokens without their values and revokes one as the API would", async () => {
    const person = await makeUser(app.url, app.app, { plan: 'sprout' });
    const kept = await makeToken(person, { name: 'kept', scopes: ['read'] });
    const doomed = await makeToken(person, { name: 'doomed', scopes: ['read', 'write'] });
    const mcp = await connectMcp(app.url, doomed.value);
    const sessionId = mcp.transport.sessionId!;

    const listed = await cli('token', 'list', '--email', person.email, '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((t: any) => [t.id, t.name, t.scopes, t.status])).toEqual([
      [doomed.token.id, 'doomed', ['read', 'write'], 'active'],
      [kept.token.id, 'kept', ['read'], 'active'],
    ]);
    const table = await cli('token', 'list', '--email', person.email);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SCOPES\s+STATUS\s+CREATED\s+LAST USED\s+EXPIRES$/);
    for (const output of [listed.stdout, table.stdout]) {
      for (const token of [kept, doomed]) {
        expect(output).not.toContain(token.value.slice(4));
        expect(output).not.toContain(sha256(token.value));
      }
    }

    const revoked = await cli('token', 'revoke', '--id', doomed.token.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain(person.email);
    const session = await app.app.deps.db
      .selectFrom('mcp_sessions')
      .select('ended_at')
      .where('id_hash', '=', sha256(sessionId))
      .executeTakeFirstOrThrow();
    expect(session.ended_at).not.toBeNull();
    // The server learns of a revocation made by another process from the database: at once on
    // PostgreSQL, within its second-long token cache on SQLite (README, CLI section).
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 401; attempt++) {
      status = (await doomed.agent.get('/api/v1/trees')).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    expect(
      (
        await rawMcp(app.url, listTools, {
          authorization: `Bearer ${doomed.value}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        })
      ).status,
    ).toBe(401);
    expect((await kept.agent.get('/api/v1/trees')).status).toBe(200);
    expect(JSON.parse((await cli('token', 'list', '--email', person.email, '--json')).stdout).items[0].status).toBe(
      'revoked',
    );
    await mcp.close().catch(() => undefined);
  });

  it('purges what has expired, once, and keeps what is live', async () => {
    const person = await makeUser(app.url, app.app);
    const db = app.app.deps.db;
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await db
      .insertInto('sessions')
      .values({
        id_hash: sha256(`dead-${person.email}`),
        owner_id: person.user.id,
        created_at: longAgo,
        expires_at: longAgo,
      })
      .execute();
    await db
      .insertInto('password_resets')
      .values({
        id: `prs_${person.user.id}`,
        owner_id: person.user.id,
        token_hash: sha256(`reset-${person.email}`),
        created_at: longAgo,
        expires_at: longAgo,
        used_at: null,
      })
      .execute();
    await db
      .insertInto('idempotency_keys')
      .values({
        owner_id: person.user.id,
        key: 'old',
        fingerprint: 'f',
        state: 'done',
        status_code: 201,
        response_body: '{}',
        created_at: longAgo,
      })
      .execute();
    await db
      .insertInto('mcp_sessions')
      .values({
        id_hash: sha256(`idle-${person.email}`),
        owner_id: person.user.id,
        credential_id: 'pat_gone',
        protocol_version: '2025-11-25',
        client_name: 'c',
        client_version: '1',
        created_at: longAgo,
        last_seen_at: longAgo,
        ended_at: null,
      })
      .execute();

    const purged = await cli('purge', '--json');
    expect(purged.code).toBe(0);
    const removed = Object.fromEntries(JSON.parse(purged.stdout).jobs.map((j: any) => [j.job, j.removed]));
    expect(removed).toMatchObject({ sessions: 1, password_resets: 1, idempotency_keys: 1, mcp_sessions: 1 });
    expect(Object.keys(removed)).toEqual([
      'idempotency_keys',
      'history',
      'sessions',
      'password_resets',
      'email_verifications',
      'mcp_sessions',
      'oauth',
      'blobs',
    ]);
    expect(
      await db.selectFrom('sessions').select('id_hash').where('owner_id', '=', person.user.id).execute(),
    ).toHaveLength(1);
    expect((await person.browser.get('/api/v1/auth/me')).body.user.email).toBe(person.email);
    const again = await cli('purge');
    expect(again.stdout).toMatch(/^sessions\s+0$/m);
  });
});
