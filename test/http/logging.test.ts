import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeToken, makeUser, PASSWORD } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { openDeps } from '../../src/app.js';
import { connectMcp } from '../helpers/mcp.js';
import { loadConfig } from '../../src/config.js';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { consent, formPost, pkce, register, REDIRECT } from '../helpers/oauth.js';

/** The real server process, with its stdout (the structured log) captured. */
describe('structured logs', () => {
  let dataDir: string;
  let server: ServerProcess;
  let url: string;
  const log = () => server.log();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tasktree-log-'));
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    url = server.url;
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hold request ids and paths, never tokens, cookies, passwords, bodies or query strings', async () => {
    const person = await makeUser(url);
    const { deps, close } = await openDeps(loadConfig({ DATA_DIR: dataDir }));
    await setUserPlan(deps, person.email, 'sprout', null);
    await close();
    const { agent, value } = await makeToken(person);
    const tree = await makeTree(agent, { name: 'tree-name-marker' });
    const task = await makeTask(agent, tree.id, { title: 'title-marker', notes: 'private-note-marker' });
    await agent.get('/api/v1/search?q=search-term-marker');
    await person.browser.post('/api/v1/auth/login', { email: person.email, password: 'wrong-password-marker' });
    const mcp = await connectMcp(url, value);
    await mcp.client.callTool({ name: 'search', arguments: { q: 'mcp-term-marker' } });
    await mcp.client.callTool({
      name: 'create_task',
      arguments: { tree_id: tree.id, title: 'mcp-title-marker', notes: 'mcp-note-marker' },
    });
    const sessionId = mcp.transport.sessionId!;
    await mcp.close();
    const { upload } = await import('../helpers/files.js');
    await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data: Buffer.from('file-content-marker'), name: 'filename-marker.txt' },
    ]);
    await server.settledLog();

    expect(log()).toContain('"reqId"');
    expect(log()).toContain('/mcp');
    expect(log()).toContain('/api/v1/search');
    const secrets = [
      value,
      value.slice(4),
      PASSWORD,
      'wrong-password-marker',
      person.browser.cookies.get('tt_session')!,
      person.browser.csrf!,
      'private-note-marker',
      'title-marker',
      'tree-name-marker',
      'search-term-marker',
      'mcp-term-marker',
      'mcp-title-marker',
      'mcp-note-marker',
      'file-content-marker',
      'filename-marker',
      sessionId,
    ];
    for (const secret of secrets) expect(log(), secret).not.toContain(secret);
  });
  it('never hold an OAuth code, verifier, state, access or refresh token, even when a request is refused', async () => {
    const person = await makeUser(url);
    const client = await register(url);
    const { verifier, challenge } = pkce();
    const state = 'state-marker-0123';
    const code = (
      await consent(person.browser, { client_id: client.body.client_id, resource: `${url}/mcp`, challenge, state })
    ).get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.body.client_id,
      code_verifier: verifier,
      resource: `${url}/mcp`,
    };
    const tokens = (await formPost(url, '/oauth/token', form)).body;
    const rotated = (
      await formPost(url, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.body.client_id,
      })
    ).body;
    await formPost(url, '/oauth/token', form); // a replay: refused, and the grant ends
    await formPost(url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: 'oac_wrong',
    });
    await formPost(url, '/oauth/revoke', { token: rotated.access_token });
    await register(url, { token_endpoint_auth_method: 'client_secret_post', client_secret: 'secret-marker' });
    await fetch(`${url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${rotated.access_token}` } });
    await server.settledLog();

    expect(log()).toContain('/oauth/token');
    for (const secret of [
      code,
      verifier,
      challenge,
      state,
      tokens.access_token,
      tokens.refresh_token,
      rotated.access_token,
      rotated.refresh_token,
      'secret-marker',
    ]) {
      expect(log(), secret).not.toContain(secret);
    }
  });

  it('write one access line per request, with its status and time', async () => {
    const id = `access-line-${Date.now()}`;
    await fetch(`${url}/api/v1/auth/me`, { headers: { 'x-request-id': id } });
    await server.settledLog();
    const lines = log()
      .split('\n')
      .filter((line) => line.includes(id))
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      reqId: id,
      req: { method: 'GET', path: '/api/v1/auth/me' },
      res: { status: 200 },
    });
    expect(typeof lines[0].responseTime).toBe('number');
  });
});

/** Lines leave without blocking the request; what is still gathered must not be lost at a stop. */
describe('the log at a clean stop', () => {
  it('holds the line of the last request answered', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-log-'));
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      const id = `last-line-${Date.now()}`;
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${server.url}/healthz`, { headers: { 'x-request-id': `${id}-${i}` } }),
        ),
      );
      await server.stop();
      const answered = new Set(
        server
          .log()
          .split('\n')
          .filter((line) => line.includes(id))
          .map((line) => JSON.parse(line).reqId),
      );
      expect(answered.size).toBe(200);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
