import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/**
 * A personal token used within the last second passes the pipeline without waiting (the cached
 * lookup and the in-process limiter, no promise). Its answers must be those of the waiting path,
 * rule by rule: each case is asked cold (the token not yet looked up) and then warm.
 */
const LIMIT = 30;

describe.each(databases)('the pipeline for a cached token (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => t.stop());
  afterEach(() => vi.restoreAllMocks());

  /** Status, error code and the RateLimit headers of an answer: what the two paths must share. */
  const outcome = (answer: { status: number; body: any; headers: Headers }) => ({
    status: answer.status,
    code: answer.body?.error?.code ?? null,
    limit: answer.headers.get('ratelimit-limit'),
    retryAfter: answer.headers.get('retry-after'),
  });

  // PostgreSQL keeps no token lookups (instances may be many), so there every request waits.
  it('is taken for a token seen within the second, on SQLite with the in-process limiter', async () => {
    const fast = kind === 'sqlite';
    const person = await makeUser(t.url, t.app);
    const { agent } = await makeToken(person);
    const waiting = vi.spyOn(t.app.deps.limiter, 'consume');
    expect((await agent.get('/api/v1/auth/me')).status).toBe(200);
    expect(waiting).toHaveBeenCalledTimes(1);
    const warm = await agent.get('/api/v1/auth/me');
    expect(warm.status).toBe(200);
    expect(warm.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
    expect(waiting).toHaveBeenCalledTimes(fast ? 1 : 2);
  });

  it('refuses a missing scope, a wrong X-Service-User and a foreign id as the waiting path does', async () => {
    const person = await makeUser(t.url, t.app);
    const stranger = await makeUser(t.url, t.app);
    const tree = await stranger.browser.post('/api/v1/trees', { name: 'Not yours' });
    const cases: [string, (agent: Awaited<ReturnType<typeof makeToken>>['agent']) => Promise<any>][] = [
      ['scope', (agent) => agent.post('/api/v1/trees', { name: 'Mine' })],
      ['guard', (agent) => agent.get('/api/v1/trees', { headers: { 'x-service-user': stranger.user.id } })],
      ['foreign', (agent) => agent.get(`/api/v1/trees/${tree.body.id}`)],
    ];
    for (const [name, ask] of cases) {
      const { agent } = await makeToken(person, { name, scopes: ['read'] });
      const cold = outcome(await ask(agent));
      const warm = outcome(await ask(agent));
      expect(cold.status, name).toBeGreaterThanOrEqual(400);
      expect(warm, name).toEqual(cold);
    }
  });

  it('answers 429 past the limit, with its headers, and sees a revocation and a plan change at once', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent } = await makeToken(person);
    const answers = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(outcome(await agent.get('/api/v1/auth/me')));
    expect(answers.slice(0, LIMIT).every((a) => a.status === 200 && a.limit === String(LIMIT))).toBe(true);
    expect(answers[LIMIT]).toEqual({
      status: 429,
      code: 'rate_limited',
      limit: String(LIMIT),
      retryAfter: expect.stringMatching(/^\d+$/),
    });

    const second = await makeToken(person, { name: 'second' });
    expect((await second.agent.get('/api/v1/auth/me')).body.user.effective_plan).toBe('sprout');
    await setUserPlan(t.app.deps, person.email, 'grove', null);
    expect((await second.agent.get('/api/v1/auth/me')).body.user.effective_plan).toBe('grove');
    expect((await person.browser.delete(`/api/v1/tokens/${second.token.id}`)).status).toBe(200);
    const revoked = await second.agent.get('/api/v1/auth/me');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('unauthenticated');
  });
});
