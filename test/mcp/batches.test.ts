import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databases,
  makeTestEnv,
  startApp,
  startTestApp,
  type DatabaseKind,
  type Running,
  type TestEnv,
} from '../helpers/app.js';
import { makeTask } from '../helpers/data.js';
import { initializeMessage, MODERN, rawMcp } from '../helpers/mcp.js';
import { someone } from './someone.js';

type Someone = Awaited<ReturnType<typeof someone>>;

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A session of this protocol revision, opened with the raw initialize a client of it sends; its headers and the budget left. */
async function openSession(url: string, token: string, revision: string) {
  const auth = { authorization: `Bearer ${token}` };
  const opened = await rawMcp(
    url,
    { ...initializeMessage, params: { ...initializeMessage.params, protocolVersion: revision } },
    auth,
  );
  expect(opened.status).toBe(200);
  expect(opened.json.result.protocolVersion).toBe(revision);
  const headers = {
    ...auth,
    'mcp-session-id': opened.headers.get('mcp-session-id')!,
    'mcp-protocol-version': revision,
  };
  return { headers, remaining: Number(opened.headers.get('ratelimit-remaining')) };
}

/** The journal of the person's calls, oldest first, as `operation status` (the journal flushes before it answers). */
async function journal(me: Someone): Promise<string[]> {
  const answer = await me.person.browser.get('/api/v1/agent-calls');
  expect(answer.status).toBe(200);
  return (answer.body.items as { operation: string; status: number }[])
    .map((item) => `${item.operation} ${item.status}`)
    .reverse();
}

async function tasksOf(me: Someone): Promise<{ title: string; status: string }[]> {
  return (await me.person.browser.get(`/api/v1/tasks?tree_id=${me.tree.id}`)).body.items;
}

/**
 * CONTRACT §19: JSON-RPC batches on /mcp. Revisions from 2025-06-18 on have none: refused with
 * -32600 and nothing run. Where a revision has them (2025-03-26 and older), each message counts
 * against the rate limit and gets its own journal record, as if it came alone.
 */
function batchTests(kind: DatabaseKind) {
  describe(`MCP JSON-RPC batches (${kind})`, () => {
    let t: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      t = await startTestApp(kind);
    });
    afterAll(async () => t.stop());

    for (const revision of ['2025-06-18', '2025-11-25']) {
      it(`refuses a batch on a ${revision} session with -32600 and runs none of it`, async () => {
        const me = await someone(t, ['read', 'write']);
        const session = await openSession(t.url, me.token, revision);
        const batch = [
          call(1, 'search', { q: 'task' }),
          call(2, 'complete_task', { id: me.task.id }),
          call(3, 'complete_task', { id: me.task.id }),
          call(4, 'create_task', { tree_id: me.tree.id, title: 'batched' }),
        ];
        const refused = await rawMcp(t.url, batch, session.headers);
        expect(refused.status).toBe(400);
        expect(refused.json).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: expect.stringMatching(/^Invalid Request: .*batches/),
            data: { code: 'validation_failed', request_id: refused.headers.get('x-request-id') },
          },
        });
        expect(await tasksOf(me)).toEqual([expect.objectContaining({ title: me.task.title, status: 'todo' })]);
        expect(await journal(me)).toEqual(['initialize 200', 'batch 400']);
        expect(Number(refused.headers.get('ratelimit-remaining'))).toBe(session.remaining - 1);
      });
    }

    it('refuses a batch whose initialize asks for a revision without batches, whatever the session', async () => {
      const me = await someone(t, ['read', 'write']);
      const old = await openSession(t.url, me.token, '2025-03-26');
      const init = { ...initializeMessage, params: { ...initializeMessage.params, protocolVersion: '2025-06-18' } };
      for (const headers of [{ authorization: `Bearer ${me.token}` }, old.headers]) {
        const refused = await rawMcp(
          t.url,
          [init, call(2, 'create_task', { tree_id: me.tree.id, title: 'batched' })],
          headers,
        );
        expect(refused.status).toBe(400);
        expect(refused.json.error).toMatchObject({ code: -32600, message: expect.stringMatching(/batches/) });
        expect(refused.headers.get('mcp-session-id')).toBeNull();
      }
      // A 2026-07-28 client's batch never reaches a session: the SDK's rules refuse it.
      const modern = {
        ...call(3, 'create_task', { tree_id: me.tree.id, title: 'batched' }),
        params: {
          name: 'create_task',
          arguments: { tree_id: me.tree.id, title: 'batched' },
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN },
        },
      };
      const refusedModern = await rawMcp(t.url, [modern], {
        authorization: `Bearer ${me.token}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'create_task',
      });
      expect(refusedModern.status).toBe(400);
      expect(refusedModern.json.error.code).toBe(-32600);
      expect(await tasksOf(me)).toHaveLength(1);
    });

    it('counts and journals every message of a 2025-03-26 batch as if it came alone', async () => {
      const me = await someone(t, ['read', 'write']);
      const second = await makeTask(me.person.browser, me.tree.id, { title: 'second' });
      const session = await openSession(t.url, me.token, '2025-03-26');
      const batch = [
        call(1, 'search', { q: 'task' }),
        call(2, 'complete_task', { id: me.task.id }),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        call(3, 'complete_task', { id: second.id }),
        call(4, 'complete_task', { id: 'tsk_unknown' }),
        call(5, 'create_task', { tree_id: me.tree.id, title: 'batched' }),
      ];
      const answer = await rawMcp(t.url, batch, session.headers);
      expect(answer.status).toBe(200);
      expect(answer.json.map((message: any) => [message.id, message.result.isError ?? false])).toEqual([
        [1, false],
        [2, false],
        [3, false],
        [4, true],
        [5, false],
      ]);
      expect(Number(answer.headers.get('ratelimit-remaining'))).toBe(session.remaining - batch.length);
      expect((await tasksOf(me)).map((task) => [task.title, task.status])).toEqual([
        [me.task.title, 'done'],
        ['second', 'done'],
        ['batched', 'todo'],
      ]);
      expect(await journal(me)).toEqual([
        'initialize 200',
        'tools/call search 200',
        'tools/call complete_task 200',
        'notifications/initialized 202',
        'tools/call complete_task 200',
        'tools/call complete_task 200',
        'tools/call create_task 200',
      ]);
      // Each tool call is a change of its own (CONTRACT §16.3), and its journal record names it.
      const changes = answer.json.map((message: any) => message.result.structuredContent?.change_id ?? null);
      const written = [changes[1], changes[2], changes[4]];
      for (const change of written) expect(change).toMatch(/^chg_/);
      expect(new Set(written).size).toBe(3);
      const items = (await me.person.browser.get('/api/v1/agent-calls')).body.items.reverse();
      expect(items.map((item: { change_id: string | null }) => item.change_id)).toEqual([
        null,
        null,
        changes[1],
        null,
        changes[2],
        null,
        changes[4],
      ]);
    });
  });
}

/**
 * A budget a batch can outrun, 8 a minute, on an app of its own that serves the MCP calls. The
 * people are made through a second app on the same database with the default budget and its own
 * in-process limiter: a shared Redis also counts every anonymous request from this address, of
 * any test, against the one per-address budget, which 8 could not absorb.
 */
function budgetTests(kind: DatabaseKind, redisUrl: string | null, label: string) {
  describe(label, () => {
    let env: TestEnv;
    let setup: Running;
    let limited: Running;
    beforeAll(async () => {
      env = makeTestEnv(kind);
      setup = await startApp(env);
      limited = await startApp(env, { rateLimitPerMinute: 8, redisUrl });
    });
    afterAll(async () => {
      await limited.close();
      await setup.close();
      await env.dispose();
    });

    it('runs no message of a 2025-03-26 batch past the rate limit', async () => {
      const me = await someone(setup, ['read', 'write']);
      const session = await openSession(limited.url, me.token, '2025-03-26');
      expect(session.remaining).toBe(7);
      const batch = Array.from({ length: 10 }, (_, i) =>
        call(i + 1, 'create_task', { tree_id: me.tree.id, title: `batched ${i + 1}` }),
      );
      const answer = await rawMcp(limited.url, batch, session.headers);
      // Seven fit (the request's own unit and six more); the three after them are refused as they would have been alone.
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(
        answer.json.slice(0, 7).map((message: any) => [message.id, message.result?.structuredContent?.task?.title]),
      ).toEqual(Array.from({ length: 7 }, (_, i) => [i + 1, `batched ${i + 1}`]));
      for (const [i, message] of answer.json.slice(7).entries()) {
        expect(message).toEqual({
          jsonrpc: '2.0',
          id: 8 + i,
          error: {
            code: -32001,
            message: expect.stringMatching(/^rate_limited: /),
            data: { code: 'rate_limited', request_id: answer.headers.get('x-request-id') },
          },
        });
      }
      expect((await tasksOf(me)).map((task) => task.title)).toEqual([
        me.task.title,
        ...Array.from({ length: 7 }, (_, i) => `batched ${i + 1}`),
      ]);
      const calls = await limited.app.deps.journal.latest(me.person.user.id);
      expect(calls.map((item) => `${item.operation} ${item.status}`).reverse()).toEqual([
        'initialize 200',
        ...Array<string>(7).fill('tools/call create_task 200'),
        ...Array<string>(3).fill('tools/call create_task 429'),
      ]);
      const after = await rawMcp(limited.url, call(11, 'search', { q: 'x' }), session.headers);
      expect(after.status).toBe(429);
      expect(await tasksOf(me)).toHaveLength(8);
    });
  });
}

for (const kind of databases) {
  batchTests(kind);
  budgetTests(kind, null, `MCP batches and the rate limit in memory (${kind})`);
}
if (process.env.TEST_REDIS_URL)
  budgetTests('sqlite', process.env.TEST_REDIS_URL, 'MCP batches and the rate limit shared through Redis');
