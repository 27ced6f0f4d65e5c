import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { startBlobStore, storeMatrix, type TestBlobStore } from '../helpers/blob-stores.js';
import { startFakeSpeech, type Behaviour } from '../helpers/fake-speech.js';
import { Client } from '../helpers/client.js';

const AUDIO = Buffer.from('RIFF....WAVEfmt fake audio bytes for the provider');

async function jobUntil(client: Client, id: string, done: (job: any) => boolean, timeoutMs = 15_000) {
  const started = Date.now();
  for (;;) {
    const answer = await client.get(`/api/v1/speech/jobs/${id}`);
    expect(answer.status).toBe(200);
    if (done(answer.body.job)) return answer.body.job;
    if (Date.now() - started > timeoutMs) throw new Error(`job stayed ${JSON.stringify(answer.body.job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const finished = (job: any) => job.status === 'succeeded' || job.status === 'failed';

describe.each(databases)('speech without a provider (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('says so and refuses transcription with 503, creating nothing', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const agent = (await makeToken(person)).agent;
    expect((await agent.get('/api/v1/speech/status')).body).toEqual({
      configured: false,
      provider: null,
      max_bytes: 26_214_400,
      formats: expect.arrayContaining(['mp3', 'wav', 'webm']),
    });
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const multipart = await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [
      { data: AUDIO, name: 'memo.wav' },
    ]);
    expect(multipart.status).toBe(503);
    expect(multipart.body.error.code).toBe('speech_unavailable');
    const { body } = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: AUDIO, name: 'memo.wav' }]);
    const json = await agent.post(`/api/v1/tasks/${task.id}/transcriptions`, { attachment_id: body.attachment.id });
    expect(json.status).toBe(503);
    expect((await agent.get(`/api/v1/tasks/${task.id}/transcriptions`)).body.items).toEqual([]);
    expect((await agent.get(`/api/v1/tasks/${task.id}/attachments`)).body.items).toHaveLength(1);
    expect(await t.app.deps.db.selectFrom('speech_jobs').selectAll().execute()).toEqual([]);
  });
});

// The worker reads the audio from the blob store: both stores are exercised.
describe.each(storeMatrix)('speech jobs (%s, %s)', (kind, storeKind) => {
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  let store: TestBlobStore;
  const script: Behaviour[] = [];

  /** An app whose provider plays `behaviours` from now on. */
  async function withProvider(behaviours: Behaviour[]) {
    script.splice(0, script.length, ...behaviours);
    provider.calls.splice(0);
  }

  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let person: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    provider = await startFakeSpeech(script);
    store = await startBlobStore(storeKind);
    t = await startTestApp(kind, {
      ...store.env,
      SPEECH_API_URL: provider.url,
      SPEECH_API_KEY: 'sk-test-key',
      SPEECH_MODEL: 'whisper-test',
      SPEECH_TIMEOUT_SECONDS: '0.5',
    });
    t.app.deps.speech.retryBaseMs = 50;
    person = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(person)).agent;
  });
  afterAll(async () => {
    await t.stop();
    await provider.close();
    await store.stop();
  });

  it('transcribes an uploaded recording through the provider', async () => {
    await withProvider(['ok']);
    const status = await agent.get('/api/v1/speech/status');
    expect(status.body).toMatchObject({ configured: true, provider: new URL(provider.url).host });
    expect(status.text).not.toContain('sk-test-key');

    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const created = await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [
      { data: AUDIO, name: 'memo.wav', type: 'audio/wav' },
    ]);
    expect(created.status).toBe(202);
    expect(created.body.job).toEqual({
      id: expect.stringMatching(/^spj_/),
      task_id: task.id,
      attachment_id: expect.stringMatching(/^att_/),
      status: 'queued',
      transcript: null,
      error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      finished_at: null,
    });
    const job = await jobUntil(agent, created.body.job.id, finished);
    expect(job).toMatchObject({
      status: 'succeeded',
      transcript: `heard ${AUDIO.length} bytes`,
      error: null,
      finished_at: expect.any(String),
    });
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]).toMatchObject({
      authorization: 'Bearer sk-test-key',
      model: 'whisper-test',
      filename: 'memo.wav',
    });
    expect(provider.calls[0]!.bytes.equals(AUDIO)).toBe(true);

    const attachments = await agent.get(`/api/v1/tasks/${task.id}/attachments`);
    expect(attachments.body.items.map((a: any) => a.id)).toEqual([created.body.job.attachment_id]);
    const listed = await agent.get(`/api/v1/tasks/${task.id}/transcriptions`);
    expect(listed.body.items.map((j: any) => j.id)).toEqual([created.body.job.id]);
  });

  it('transcribes an attachment of the task named in JSON, and only of that task', async () => {
    await withProvider(['ok']);
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const other = await makeTask(agent, tree.id);
    const { body } = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data: AUDIO, name: 'call.mp3', type: 'audio/mpeg' },
    ]);
    const created = await agent.post(`/api/v1/tasks/${task.id}/transcriptions`, { attachment_id: body.attachment.id });
    expect(created.status).toBe(202);
    expect((await jobUntil(agent, created.body.job.id, finished)).status).toBe('succeeded');
    const wrongTask = await agent.post(`/api/v1/tasks/${other.id}/transcriptions`, {
      attachment_id: body.attachment.id,
    });
    expect(wrongTask.status).toBe(409);
    for (const bad of [{}, { attachment_id: '' }, { attachment_id: 'att_x', extra: 1 }, { attachment_id: 5 }]) {
      expect((await agent.post(`/api/v1/tasks/${task.id}/transcriptions`, bad)).status, JSON.stringify(bad)).toBe(400);
    }

    const mallory = await makeUser(t.url, t.app, { plan: 'sprout' });
    const eve = (await makeToken(mallory)).agent;
    const eveTree = await makeTree(eve);
    const eveTask = await makeTask(eve, eveTree.id);
    expect(
      (await eve.post(`/api/v1/tasks/${eveTask.id}/transcriptions`, { attachment_id: body.attachment.id })).status,
    ).toBe(404);
    expect(
      (await eve.post(`/api/v1/tasks/${task.id}/transcriptions`, { attachment_id: body.attachment.id })).status,
    ).toBe(404);
    expect((await eve.get(`/api/v1/speech/jobs/${created.body.job.id}`)).status).toBe(404);
    expect((await eve.get(`/api/v1/tasks/${task.id}/transcriptions`)).status).toBe(404);
  });

  it('reads transcripts only with read + attachments, as the audio itself (CONTRACT §19)', async () => {
    await withProvider(['ok']);
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const created = await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [
      { data: AUDIO, name: 'memo.wav', type: 'audio/wav' },
    ]);
    const job = await jobUntil(agent, created.body.job.id, finished);
    expect(job.transcript).toEqual(expect.any(String));

    const readOnly = (await makeToken(person, { scopes: ['read'] })).agent;
    const audio = await readOnly.get(`/api/v1/attachments/${job.attachment_id}/content`);
    expect(audio.status).toBe(403);
    for (const path of [`/api/v1/speech/jobs/${job.id}`, `/api/v1/tasks/${task.id}/transcriptions`]) {
      const refused = await readOnly.get(path);
      expect({ status: refused.status, code: refused.body.error?.code }, path).toEqual({
        status: audio.status,
        code: audio.body.error.code,
      });
      expect(refused.headers.get('www-authenticate'), path).toBe(audio.headers.get('www-authenticate'));
      expect(refused.text, path).not.toContain(job.transcript);
    }
    // The task and its attachment records stay readable: only content is behind the scope.
    expect((await readOnly.get(`/api/v1/tasks/${task.id}/attachments`)).status).toBe(200);

    const withContent = (await makeToken(person, { scopes: ['read', 'attachments'] })).agent;
    const one = await withContent.get(`/api/v1/speech/jobs/${job.id}`);
    expect(one.status).toBe(200);
    expect(one.body.job.transcript).toBe(job.transcript);
    const listed = await withContent.get(`/api/v1/tasks/${task.id}/transcriptions`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((j: any) => j.id)).toEqual([job.id]);
  });

  it('needs write + attachments and a plan with transcription', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const readOnly = (await makeToken(person, { scopes: ['read', 'attachments'] })).agent;
    const refused = await readOnly.post(`/api/v1/tasks/${task.id}/transcriptions`, { attachment_id: 'att_x' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const seed = await makeUser(t.url, t.app);
    const seedTree = await makeTree(seed.browser);
    const seedTask = await makeTask(seed.browser, seedTree.id);
    const onSeed = await upload(seed.browser, `/api/v1/tasks/${seedTask.id}/transcriptions`, [{ data: AUDIO }]);
    expect(onSeed.status).toBe(403);
    expect(onSeed.body.error.code).toBe('plan_limit_reached');
    expect((await seed.browser.get(`/api/v1/tasks/${seedTask.id}/attachments`)).body.items).toEqual([]);
  });

  it('retries provider failures and timeouts, and fails on a refusal with a readable error', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const transcribe = async () =>
      (await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [{ data: AUDIO, name: 'memo.wav' }])).body.job
        .id as string;

    await withProvider(['fail-500', 'ok']);
    const recovered = await jobUntil(agent, await transcribe(), finished);
    expect(recovered).toMatchObject({ status: 'succeeded', error: null });
    expect(provider.calls).toHaveLength(2);

    await withProvider(['slow', 'ok']);
    expect((await jobUntil(agent, await transcribe(), finished)).status).toBe('succeeded');
    expect(provider.calls).toHaveLength(2);

    await withProvider(['refuse-400']);
    const refused = await jobUntil(agent, await transcribe(), finished);
    expect(refused).toMatchObject({ status: 'failed', transcript: null, finished_at: expect.any(String) });
    expect(refused.error).toBe(
      'The provider refused the audio (400): Invalid file format. Supported formats: mp3, wav.',
    );
    expect(provider.calls).toHaveLength(1);

    await withProvider(['fail-500']);
    const gaveUp = await jobUntil(agent, await transcribe(), finished);
    expect(gaveUp.status).toBe('failed');
    expect(gaveUp.error).toMatch(/failed \(500\): upstream overloaded\. Gave up after 5 attempts/);
    expect(provider.calls).toHaveLength(5);
  });
});

describe.each(storeMatrix)('speech jobs across restarts (%s, %s)', (kind, storeKind) => {
  it('picks up a job that was running when the process died, and one left by a clean stop', async () => {
    const provider = await startFakeSpeech(['slow']);
    const store = await startBlobStore(storeKind);
    const env = makeTestEnv(kind, { ...store.env, SPEECH_API_URL: provider.url, SPEECH_TIMEOUT_SECONDS: '30' });
    try {
      const first = await startApp(env);
      const person = await makeUser(first.url, first.app, { plan: 'sprout' });
      const agent = (await makeToken(person)).agent;
      const tree = await makeTree(agent);
      const task = await makeTask(agent, tree.id);
      const stopped = (await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [{ data: AUDIO }])).body.job
        .id as string;
      await jobUntil(agent, stopped, (job) => job.status === 'running');
      await first.close();

      // A clean stop puts the job in hand back in the queue. A process that died mid-call leaves
      // its job running with a lease; seed one whose lease has run out.
      const probe = await startApp(env, { speech: { ...env.config.speech, apiUrl: null } });
      const { db } = probe.app.deps;
      expect(
        (await db.selectFrom('speech_jobs').select('status').where('id', '=', stopped).executeTakeFirstOrThrow())
          .status,
      ).toBe('queued');
      const now = new Date().toISOString();
      const attachment = await db
        .selectFrom('attachments')
        .select('id')
        .where('task_id', '=', task.id)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('speech_jobs')
        .values({
          id: 'spj_crashed',
          owner_id: person.user.id,
          task_id: task.id,
          attachment_id: attachment.id,
          status: 'running',
          transcript: null,
          error: null,
          attempts: 1,
          run_at: new Date(Date.now() - 1000).toISOString(),
          created_at: now,
          updated_at: now,
          finished_at: null,
        })
        .execute();
      await probe.close();

      provider.calls.splice(0);
      const okProvider = await startFakeSpeech(['ok']);
      const second = await startApp(env, { speech: { ...env.config.speech, apiUrl: okProvider.url } });
      try {
        const resumed = new Client(second.url).withBearer(agent.bearer!);
        for (const id of [stopped, 'spj_crashed']) {
          const job = await jobUntil(resumed, id, finished);
          expect(job).toMatchObject({ status: 'succeeded', transcript: `heard ${AUDIO.length} bytes` });
        }
        expect(okProvider.calls).toHaveLength(2);
      } finally {
        await second.close();
        await okProvider.close();
      }
    } finally {
      await provider.close();
      await env.dispose();
      await store.stop();
    }
  }, 30_000);
});
