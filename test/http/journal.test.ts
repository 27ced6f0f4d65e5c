import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp } from '../helpers/mcp.js';
import { JOURNAL_KEEP_PER_OWNER } from '../../src/domain/agents/journal.js';
import { CALLS_PER_BATCH, type StoredCall } from '../../src/store/agent-calls.js';
import type { App } from '../../src/app.js';

/** The operations of every call stored for the owner, oldest first, as the database holds them. */
async function storedOperations(app: App, ownerId: string): Promise<string[]> {
  const batches = await app.deps.db
    .selectFrom('agent_call_batches')
    .select(['call_count', 'calls'])
    .where('owner_id', '=', ownerId)
    .orderBy('seq')
    .execute();
  return batches.flatMap((batch) => {
    const calls = JSON.parse(batch.calls) as StoredCall[];
    expect(calls).toHaveLength(batch.call_count);
    expect(calls.length).toBeLessThanOrEqual(CALLS_PER_BATCH);
    return calls.map((call) => call[3]);
  });
}

/** The journal is written after the answer leaves; poll the session endpoint until it shows up. */
async function journalOf(browser: { get: (path: string) => Promise<{ status: number; body: any }> }, atLeast: number) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const answer = await browser.get('/api/v1/agent-calls');
    expect(answer.status).toBe(200);
    if (answer.body.items.length >= atLeast) return answer.body.items as any[];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`journal never reached ${atLeast} records`);
}

describe.each(databases)('agent call journal (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('records REST and MCP calls made with tokens, metadata only, newest first', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(person, { scopes: ['read', 'write'] });
    const tree = await makeTree(made.agent, { name: 'Journal' });
    const task = await makeTask(made.agent, tree.id, { notes: 'the-private-note' });
    await made.agent.get(`/api/v1/tasks/${task.id}`, { headers: { 'user-agent': 'curl/8.5.0' } });
    await made.agent.get('/api/v1/search?q=zanzibar-term&limit=5');
    await made.agent.get('/api/v1/tasks/tsk_missing');
    await person.browser.get('/api/v1/trees');

    const mcp = await connectMcp(t.url, made.value);
    await mcp.client.callTool({ name: 'search', arguments: { q: 'mcp-secret-term' } });
    await mcp.close();

    const items = await journalOf(person.browser, 8);
    const operations = items.map((item) => `${item.surface} ${item.operation} ${item.status}`);
    expect(operations.slice(-6).reverse()).toEqual([
      'rest POST /trees 201',
      'rest POST /tasks 201',
      'rest GET /tasks/{id} 200',
      'rest GET /search 200',
      'rest GET /tasks/{id} 404',
      'mcp initialize 200',
    ]);
    expect(operations).toContain('mcp tools/call search 200');
    expect(operations.some((op) => op.startsWith('rest GET /trees'))).toBe(false);
    const ats = items.map((item) => item.at);
    expect([...ats].sort().reverse()).toEqual(ats);

    const curl = items.find((item) => item.operation === 'GET /tasks/{id}' && item.status === 200);
    expect(curl).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      surface: 'rest',
      operation: 'GET /tasks/{id}',
      status: 200,
      duration_ms: expect.any(Number),
      token_id: made.token.id,
      client: 'curl',
      change_id: null,
    });
    expect(items.find((item) => item.operation === 'initialize')!.client).toBe('vitest-agent');
    const text = JSON.stringify(items);
    for (const secret of ['zanzibar', 'mcp-secret-term', 'the-private-note', made.value, task.id, 'limit='])
      expect(text).not.toContain(secret);
  });

  it('is for the browser session only and shows only the own calls', async () => {
    const person = await makeUser(t.url, t.app);
    const made = await makeToken(person);
    const refused = await made.agent.get('/api/v1/agent-calls');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('session_required');
    expect((await new (made.agent.constructor as any)(t.url).get('/api/v1/agent-calls')).status).toBe(401);

    const other = await makeUser(t.url, t.app);
    const otherToken = await makeToken(other);
    await otherToken.agent.get('/api/v1/trees');
    await journalOf(other.browser, 1);
    const mine = await journalOf(person.browser, 1);
    expect(mine.every((item) => item.token_id === made.token.id)).toBe(true);
  });

  it('keeps the newest 2,000 per owner and returns the latest 100', async () => {
    const person = await makeUser(t.url, t.app);
    const ownerId = person.user.id;
    for (let i = 0; i < JOURNAL_KEEP_PER_OWNER + 150; i++) {
      t.app.deps.journal.record(ownerId, {
        surface: 'rest',
        operation: `GET /op${i}`,
        status: 200,
        duration_ms: 1,
        token_id: 'tok_x',
        client: null,
      });
    }
    const items = await journalOf(person.browser, 100);
    expect(items).toHaveLength(100);
    expect(items[0].operation).toBe(`GET /op${JOURNAL_KEEP_PER_OWNER + 149}`);
    expect(await storedOperations(t.app, ownerId)).toEqual(
      Array.from({ length: JOURNAL_KEEP_PER_OWNER }, (_, i) => `GET /op${i + 150}`),
    );
  });

  it('keeps at most the newest 2,000 of a busy owner over many flushes, the latest 100 whole and in order', async () => {
    const person = await makeUser(t.url, t.app);
    const ownerId = person.user.id;
    let made = 0;
    // Flushes of uneven sizes, as a busy agent's seconds are: the kept calls never pass 2,000.
    for (const size of [700, 1, 333, 999, 57, 1_200, 640, 3]) {
      for (let i = 0; i < size; i++, made++) {
        t.app.deps.journal.record(ownerId, {
          surface: 'mcp',
          operation: `tools/call n${made}`,
          status: 200,
          duration_ms: 1,
          token_id: 'tok_z',
          client: null,
        });
      }
      await t.app.deps.journal.flush();
      const stored = await storedOperations(t.app, ownerId);
      expect(stored.length).toBeLessThanOrEqual(JOURNAL_KEEP_PER_OWNER);
      expect(stored.length).toBeGreaterThanOrEqual(Math.min(made, JOURNAL_KEEP_PER_OWNER - CALLS_PER_BATCH));
      expect(stored).toEqual(
        Array.from({ length: stored.length }, (_, i) => `tools/call n${made - stored.length + i}`),
      );
      const latest = await t.app.deps.journal.latest(ownerId);
      expect(latest.map((call) => call.operation)).toEqual(stored.slice(-100).reverse());
    }
  });

  it('writes what is pending when the service shuts down', async () => {
    const env = makeTestEnv(kind);
    try {
      const first = await startApp(env);
      const person = await makeUser(first.url, first.app);
      first.app.deps.journal.record(person.user.id, {
        surface: 'mcp',
        operation: 'tools/call get_task',
        status: 200,
        duration_ms: 3,
        token_id: 'tok_y',
        client: 'x',
      });
      await first.close();
      const second = await startApp(env);
      try {
        expect(await storedOperations(second.app, person.user.id)).toEqual(['tools/call get_task']);
      } finally {
        await second.close();
      }
    } finally {
      await env.dispose();
    }
  });
});
