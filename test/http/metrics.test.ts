import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';

const TOKEN = 'metrics-scrape-token-0123456789';
const AUDIO = Buffer.from('RIFF....WAVEfmt fake audio bytes for the provider');

/** The value of one sample line (`name{labels} value`), or undefined when the scrape has none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(databases)('GET /metrics on its own port (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  let metricsUrl: string;

  async function scrape(token: string | null = TOKEN) {
    const response = await fetch(metricsUrl, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  beforeAll(async () => {
    // The provider never answers: a job it was given stays running for as long as the test needs.
    provider = await startFakeSpeech(['slow']);
    t = await startTestApp(kind, {
      METRICS_PORT: '0',
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_PER_MINUTE: '40',
      SPEECH_API_URL: provider.url,
    });
    metricsUrl = `${t.app.metricsServer!.url}/metrics`;
  });
  afterAll(async () => {
    await t.stop();
    await provider.close();
  });

  it('counts requests by method, route template and status, never by the URL asked for', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent } = await makeToken(person, { scopes: ['read', 'write'] });
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    for (let i = 0; i < 3; i++) expect((await agent.get(`/api/v1/tasks/${task.id}`)).status).toBe(200);
    expect((await agent.get('/api/v1/tasks/tsk_doesnotexist')).status).toBe(404);
    const nowhere = `nowhere-${randomBytes(6).toString('hex')}`;
    expect((await agent.get(`/api/v1/${nowhere}`)).status).toBe(404);

    const { status, headers, text } = await scrape();
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'tasktree_http_requests_total{method="GET",route="/api/v1/tasks/:id",status="200"}')).toBe(3);
    expect(sample(text, 'tasktree_http_requests_total{method="GET",route="/api/v1/tasks/:id",status="404"}')).toBe(1);
    expect(sample(text, 'tasktree_http_requests_total{method="POST",route="/api/v1/tasks",status="201"}')).toBe(1);
    expect(
      sample(text, 'tasktree_http_request_duration_seconds_count{method="GET",route="/api/v1/tasks/:id",status="200"}'),
    ).toBe(3);
    expect(
      sample(
        text,
        'tasktree_http_request_duration_seconds_bucket{method="GET",route="/api/v1/tasks/:id",status="200",le="+Inf"}',
      ),
    ).toBe(3);
    expect(
      sample(text, 'tasktree_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    // No id, no unknown path, no token ever becomes a label.
    for (const secret of [task.id, tree.id, nowhere, person.user.id]) expect(text).not.toContain(secret);
  });

  it('reports query time, the journal buffer and the process', async () => {
    const { text } = await scrape();
    expect(sample(text, 'tasktree_db_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(0);
    expect(sample(text, 'tasktree_journal_pending_records')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    if (kind === 'postgres') {
      expect(sample(text, 'tasktree_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'tasktree_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(text).not.toContain('tasktree_db_pool_connections');
    }
  });

  it('reports the speech queue: one job in hand, the next one waiting', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const task = await makeTask(agent, (await makeTree(agent)).id);
    expect(sample((await scrape()).text, 'tasktree_speech_jobs{status="running"}')).toBe(0);
    for (const name of ['one.wav', 'two.wav']) {
      expect((await upload(agent, `/api/v1/tasks/${task.id}/transcriptions`, [{ data: AUDIO, name }])).status).toBe(
        202,
      );
    }
    // One job at a time per process: the provider holds the first, the second waits its turn.
    await until(() => provider.calls.length === 1, 'the provider got the first job');
    const { text } = await scrape();
    expect(sample(text, 'tasktree_speech_jobs{status="running"}')).toBe(1);
    expect(sample(text, 'tasktree_speech_jobs{status="queued"}')).toBe(1);
  });

  it('counts rate-limit rejections', async () => {
    const before = sample((await scrape()).text, 'tasktree_rate_limit_rejections_total') ?? 0;
    const { agent } = await makeToken(await makeUser(t.url, t.app));
    const answers = await Promise.all(Array.from({ length: 45 }, () => agent.get('/api/v1/auth/me')));
    const refused = answers.filter((a) => a.status === 429).length;
    expect(refused).toBe(5);
    expect(sample((await scrape()).text, 'tasktree_rate_limit_rejections_total')).toBe(before + refused);
  });

  it('asks for the token, in constant time, and serves nothing else', async () => {
    const missing = await scrape(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await scrape('metrics-scrape-token-0123456780')).status).toBe(401);
    expect((await scrape(TOKEN.slice(0, -1))).status).toBe(401);
    expect((await fetch(metricsUrl, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      405,
    );
    expect((await fetch(`${t.app.metricsServer!.url}/healthz`)).status).toBe(404);
    // The service's own port keeps its JSON 404: metrics never reach the public side.
    const onService = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(onService.status).toBe(404);
    expect(await onService.text()).not.toContain('tasktree_');
  });
});

describe('metrics off (the default)', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t.stop());

  it('opens no listener and answers /metrics with 404', async () => {
    expect(t.app.metricsServer).toBeNull();
    expect(t.app.deps.metrics).toBeNull();
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
  });
});
