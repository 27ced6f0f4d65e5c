import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('request pipeline (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let person: Person;
  let agent: Client;
  beforeAll(async () => {
    t = await startTestApp(kind);
    person = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(person)).agent;
  });
  afterAll(async () => t.stop());

  function expectErrorBody(body: any, code: string) {
    expect(body).toEqual({
      error: {
        code,
        message: expect.any(String),
        request_id: expect.any(String),
        ...(body.error.details ? { details: expect.any(Array) } : {}),
      },
    });
  }

  it('answers every failure with the CONTRACT error body', async () => {
    const unknownRoute = await agent.get('/api/v1/nothing-here');
    expect(unknownRoute.status).toBe(404);
    expectErrorBody(unknownRoute.body, 'not_found');
    const wrongMethod = await agent.request('PUT', '/api/v1/trees');
    expect(wrongMethod.status).toBe(405);
    expectErrorBody(wrongMethod.body, 'method_not_allowed');
    const text = await agent.request('POST', '/api/v1/trees', { raw: 'name=x', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expectErrorBody(text.body, 'unsupported_media_type');
    const broken = await agent.request('POST', '/api/v1/trees', { raw: '{"name":', contentType: 'application/json' });
    expect(broken.status).toBe(400);
    expectErrorBody(broken.body, 'invalid_json');
    const huge = await agent.post('/api/v1/trees', { name: 'x', pad: 'p'.repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expectErrorBody(huge.body, 'payload_too_large');
    const unknownField = await agent.post('/api/v1/trees', { name: 'x', colour: 'red' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.details[0]).toMatchObject({ path: expect.any(String), message: expect.any(String) });
    const anonymous = await fetch(`${t.url}/api/v1/trees`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(await anonymous.json(), 'unauthenticated');
    const badToken = await fetch(`${t.url}/api/v1/trees`, { headers: { authorization: 'Bearer ttp_nope' } });
    expect(badToken.status).toBe(401);
  });

  it('names the missing scope', async () => {
    const reader = (await makeToken(person, { scopes: ['read'] })).agent;
    const answer = await reader.post('/api/v1/trees', { name: 'x' });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('insufficient_scope');
    expect(answer.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="write"/);
  });

  it('echoes a plain X-Request-Id and makes one otherwise', async () => {
    const echoed = await agent.get('/api/v1/trees', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const made = await agent.get('/api/v1/nothing', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.error.request_id).toBe(made.headers.get('x-request-id'));
  });

  it('checks X-Service-User before any data access', async () => {
    const other = await makeUser(t.url);
    const mismatch = await agent.post(
      '/api/v1/trees',
      { name: 'guarded' },
      { headers: { 'x-service-user': other.user.id } },
    );
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe('account_mismatch');
    expect((await agent.get('/api/v1/trees', { headers: { 'x-service-user': other.user.id } })).status).toBe(409);
    expect((await agent.get('/api/v1/trees?limit=200')).body.items.some((tr: any) => tr.name === 'guarded')).toBe(
      false,
    );
    expect((await agent.get('/api/v1/trees', { headers: { 'x-service-user': person.user.id } })).status).toBe(200);
    expect((await agent.get('/api/v1/trees', { headers: { 'x-service-user': 'u'.repeat(161) } })).status).toBe(400);
    const cookieKeyed = await person.browser.post(
      '/api/v1/trees',
      { name: 'keyed' },
      { headers: { 'idempotency-key': 'browser-key-1' } },
    );
    expect(cookieKeyed.status).toBe(400);
    expect(cookieKeyed.body.error.code).toBe('account_guard_required');
    const guarded = await person.browser.post(
      '/api/v1/trees',
      { name: 'keyed' },
      { headers: { 'idempotency-key': 'browser-key-1', 'x-service-user': person.user.id } },
    );
    expect(guarded.status).toBe(201);
    const bearerKeyed = await agent.post(
      '/api/v1/trees',
      { name: 'bearer keyed' },
      { headers: { 'idempotency-key': 'bearer-key-1' } },
    );
    expect(bearerKeyed.status).toBe(201);
  });

  it('lets the Bearer token decide over a cookie', async () => {
    const other = await makeUser(t.url);
    const both = other.browser.withBearer((await makeToken(person)).value);
    for (const [k, v] of other.browser.cookies) both.cookies.set(k, v);
    expect((await both.get('/api/v1/auth/me')).body.user.id).toBe(person.user.id);
  });

  it('replays idempotent writes and creates once under concurrent duplicates', async () => {
    const headers = { 'idempotency-key': `dup-${Date.now()}` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => agent.post('/api/v1/trees', { name: 'once only' }, { headers })),
    );
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.tree.id));
    expect(ids.size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.error.code).toBe('idempotency_in_progress');
    }
    const replay = await agent.post('/api/v1/trees', { name: 'once only' }, { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.tree.id).toBe([...ids][0]);
    const otherPath = await agent.post('/api/v1/projects', { tree_id: replay.body.tree.id, name: 'x' }, { headers });
    expect(otherPath.body.error.code).toBe('idempotency_conflict');
    expect((await agent.post('/api/v1/trees', { name: 'x' }, { headers: { 'idempotency-key': 'short' } })).status).toBe(
      400,
    );
    expect(
      (await agent.post('/api/v1/trees', { name: 'x' }, { headers: { 'idempotency-key': 'has spaces in it' } })).status,
    ).toBe(400);
  });

  it('claims an Idempotency-Key only on the writes that take one, not on a read or a write that ignores keys', async () => {
    const stored = async (key: string) =>
      (await t.app.deps.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).length;
    const read = `read-${Date.now()}`;
    expect((await agent.get('/api/v1/trees', { headers: { 'idempotency-key': read } })).status).toBe(200);
    const ignored = `logout-${Date.now()}`;
    const leaving = await makeUser(t.url, t.app);
    expect(
      (await leaving.browser.post('/api/v1/auth/logout', {}, { headers: { 'idempotency-key': ignored } })).status,
    ).toBe(200);
    const write = `write-${Date.now()}`;
    expect(
      (await agent.post('/api/v1/trees', { name: 'keyed' }, { headers: { 'idempotency-key': write } })).status,
    ).toBe(201);
    expect([await stored(read), await stored(ignored), await stored(write)]).toEqual([0, 0, 1]);
  });

  it('does not store failures for replay', async () => {
    const headers = { 'idempotency-key': `fail-${Date.now()}` };
    expect((await agent.post('/api/v1/tasks', { tree_id: 'tre_missing', title: 'x' }, { headers })).status).toBe(404);
    const tree = (await agent.post('/api/v1/trees', { name: 'later' })).body.tree;
    expect((await agent.post('/api/v1/tasks', { tree_id: 'tre_missing', title: 'x' }, { headers })).status).toBe(404);
    expect(tree.id).toBeTruthy();
  });
});
