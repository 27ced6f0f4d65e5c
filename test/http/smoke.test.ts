import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeToken, makeUser } from '../helpers/factories.js';

describe.each(databases)('front door walkthrough (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('bootstraps, registers, creates a token and reads /auth/me with it', async () => {
    const person = await makeUser(t.url);
    const { agent, value } = await makeToken(person);
    expect(value).toMatch(/^ttp_[A-Za-z0-9_-]{43}$/);
    const me = await agent.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: expect.objectContaining({ id: person.user.id, email: person.email }) });
  });

  it('serves health and readiness', async () => {
    const anon = new Client(t.url);
    expect((await anon.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await anon.get('/readyz')).status).toBe(200);
  });
});
