import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { connectMcp, rawMcp } from '../helpers/mcp.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';
import { envOf, spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * ARCHITECTURE's promise: instances are stateless behind a load balancer on PostgreSQL and Redis.
 * Two real app instances share one schema, one Redis and one S3 bucket, each with a DATA_DIR of
 * its own (as two machines would have); every property is shown by doing
 * something through one and looking through the other. The second runs as a process of its own:
 * two instances in one process would share module state (such as the revocation listeners) and
 * could pass where two machines would not.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const shared = databaseUrl !== undefined && redisUrl !== undefined;
if (!shared) console.warn('\n  NOTICE: two-instance tests skipped; they need TEST_DATABASE_URL and TEST_REDIS_URL\n');

/** Per token; low enough to spend quickly, high enough for the anonymous sign-ups of parallel test files. */
const RATE_LIMIT = 100;
const AUDIO = Buffer.from('RIFF....WAVEfmt fake audio bytes for the provider');

/** The same browser (cookie jar and CSRF value) talking to another instance. */
function onInstance(client: Client, url: string): Client {
  const moved = new Client(url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  moved.csrf = client.csrf;
  moved.bearer = client.bearer;
  return moved;
}

async function spend(client: Client, count: number): Promise<void> {
  for (let i = 0; i < count; i += 25) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, () => client.get('/api/v1/auth/me')),
    );
    for (const a of answers) expect(a.status).toBe(200);
  }
}

describe.skipIf(!shared)('two instances, one service (PostgreSQL + Redis)', () => {
  let env: TestEnv;
  let one: Running;
  let two: ServerProcess;
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  let s3: S3Server;
  let secondDataDir: string;
  let person: Person;

  beforeAll(async () => {
    provider = await startFakeSpeech(['ok']);
    s3 = await startS3Server();
    const settings = {
      REDIS_URL: redisUrl!,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      SPEECH_API_URL: provider.url,
      ...s3.env,
    };
    env = makeTestEnv('postgres', settings);
    one = await startApp(env);
    // Nothing of the first instance's disk is visible to the second: files reach it through the bucket only.
    secondDataDir = mkdtempSync(join(tmpdir(), 'tasktree-second-'));
    two = await spawnServer({ ...envOf(env), ...settings, DATA_DIR: secondDataDir });
    person = await makeUser(one.url, one.app, { plan: 'sprout' });
  });
  afterAll(async () => {
    await one?.close();
    await two?.stop();
    await env?.dispose();
    await provider?.close();
    await s3?.stop();
    if (secondDataDir !== undefined) rmSync(secondDataDir, { recursive: true, force: true });
  });

  it('serves a browser session opened on one from the other', async () => {
    const me = await onInstance(person.browser, two.url).get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(person.user.id);
  });

  it('continues an MCP session opened on one on the other, and ends it for both', async () => {
    const made = await makeToken(person, { scopes: ['read', 'write'] });
    const task = await makeTask(made.agent, (await makeTree(made.agent)).id, { title: 'Seen from both' });
    const opened = await connectMcp(one.url, made.value);
    const sessionId = opened.transport.sessionId!;
    expect(sessionId).toBeTruthy();
    const resumed = await connectMcp(two.url, made.value, { sessionId });
    const got = await resumed.client.callTool({ name: 'get_task', arguments: { id: task.id } });
    expect((got.structuredContent as any).task.title).toBe('Seen from both');
    expect(resumed.transport.sessionId).toBe(sessionId);
    // Ended through the second instance, the session is gone on the first.
    await resumed.transport.terminateSession();
    const afterEnd = await rawMcp(
      one.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      {
        authorization: `Bearer ${made.value}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
    );
    expect(afterEnd.status).toBe(404);
    await opened.close();
    await resumed.close();
  });

  it('gives a token one rate-limit budget over both instances', async () => {
    const { value } = await makeToken(person);
    const viaOne = new Client(one.url).withBearer(value);
    const viaTwo = new Client(two.url).withBearer(value);
    const first = await viaOne.get('/api/v1/auth/me');
    expect(first.headers.get('ratelimit-remaining')).toBe(String(RATE_LIMIT - 1));
    await spend(viaTwo, RATE_LIMIT / 2);
    await spend(viaOne, RATE_LIMIT / 2 - 1);
    for (const via of [viaOne, viaTwo]) {
      const limited = await via.get('/api/v1/auth/me');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('rate_limited');
    }
  });

  it('refuses a token revoked through one at the very next request on the other', async () => {
    const made = await makeToken(person);
    const onTwo = new Client(two.url).withBearer(made.value);
    // Looked up on the second instance first, so anything it kept in memory would be warm.
    expect((await onTwo.get('/api/v1/auth/me')).status).toBe(200);
    expect((await onTwo.get('/api/v1/auth/me')).status).toBe(200);
    expect((await person.browser.delete(`/api/v1/tokens/${made.token.id}`)).status).toBe(200);
    const refused = await onTwo.get('/api/v1/auth/me');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthenticated');
  });

  it('runs each speech job exactly once while both instances work the queue', async () => {
    const { agent } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const agents = [agent, onInstance(agent, two.url)];
    const task = await makeTask(agent, (await makeTree(agent)).id);
    const names = Array.from({ length: 8 }, (_, i) => `memo-${i}.wav`);
    const attachments: string[] = [];
    for (const [i, name] of names.entries()) {
      const stored = await upload(agents[i % 2]!, `/api/v1/tasks/${task.id}/attachments`, [
        { data: AUDIO, name, type: 'audio/wav' },
      ]);
      expect(stored.status).toBe(201);
      attachments.push(stored.body.attachment.id);
    }
    // Queued through both at once: each instance's worker is nudged and both drain the one queue.
    const queued = await Promise.all(
      attachments.map((id, i) => agents[i % 2]!.post(`/api/v1/tasks/${task.id}/transcriptions`, { attachment_id: id })),
    );
    for (const answer of queued) expect(answer.status).toBe(202);
    const jobIds = queued.map((answer) => answer.body.job.id as string);

    const deadline = Date.now() + 30_000;
    for (;;) {
      const jobs = await one.app.deps.db
        .selectFrom('speech_jobs')
        .select(['id', 'status', 'attempts'])
        .where('id', 'in', jobIds)
        .execute();
      if (jobs.every((job) => job.status === 'succeeded')) {
        expect(jobs.map((job) => job.attempts)).toEqual(jobIds.map(() => 1));
        break;
      }
      if (Date.now() > deadline) throw new Error(`jobs stayed ${JSON.stringify(jobs)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The provider heard each recording once: no job was claimed by both workers.
    expect(provider.calls.map((call) => call.filename).sort()).toEqual([...names].sort());
  });

  describe('an upload through one is served by the other', () => {
    it('serves an attachment uploaded through one instance, by its signed content link, from the other', async () => {
      const { agent } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
      const task = await makeTask(agent, (await makeTree(agent)).id);
      const bytes = Buffer.from('a note written on the first instance');
      const stored = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
        { data: bytes, name: 'note.txt', type: 'text/plain' },
      ]);
      expect(stored.status).toBe(201);
      const id = stored.body.attachment.id as string;
      const onTwo = onInstance(agent, two.url);
      const described = await onTwo.get(`/api/v1/attachments/${id}`);
      expect(described.status).toBe(200);
      // The link names PUBLIC_URL (here the first instance's address); its path and signature work anywhere.
      const link = new URL(described.body.content_url as string);
      const content = await fetch(`${two.url}${link.pathname}${link.search}`);
      expect(content.status).toBe(200);
      expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
      expect((await onTwo.get(`/api/v1/attachments/${id}/content`)).status).toBe(200);
    });

    it('deletes the object for both when the attachment is deleted through either', async () => {
      const { agent } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
      const task = await makeTask(agent, (await makeTree(agent)).id);
      const stored = await upload(onInstance(agent, two.url), `/api/v1/tasks/${task.id}/attachments`, [
        { data: Buffer.from('short-lived'), name: 'gone.txt', type: 'text/plain' },
      ]);
      const id = stored.body.attachment.id as string;
      const key = (await s3.keys()).find((k) => k.endsWith(id));
      expect(key).toBeDefined();
      expect((await agent.delete(`/api/v1/attachments/${id}`)).status).toBe(200);
      expect(await s3.keys()).not.toContain(key);
      expect((await onInstance(agent, two.url).get(`/api/v1/attachments/${id}/content`)).status).toBe(404);
    });
  });
});
