import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAnswersAtTurnEnd } from '../../src/http/turn-end-writes.js';
import { rawRequest } from '../helpers/raw-http.js';
import { answerAtTurnEnd, atTurnEnd } from '../../src/turn-end.js';

const apps: FastifyInstance[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A server holding its answers to the turn's end, with routes that tell what happened when. */
async function serve(logged: unknown[] = []): Promise<string> {
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  });
  apps.push(app);
  writeAnswersAtTurnEnd(app);
  app.get('/headers-at-next-immediate', (_request, reply) => {
    let headersSentThen: boolean | null = null;
    setImmediate(() => {
      headersSentThen = reply.raw.headersSent;
    });
    reply.raw.once('finish', () => reply.log.error({ headersSentThen }, 'finished'));
    return { ok: true };
  });
  app.get('/n/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }));
  app.get('/unwritable', (_request, reply) => {
    // Node refuses a header value with a line break when the head is written, not when it is set.
    reply.header('x-broken', 'a\nb');
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

describe('answers leave at the end of their turn', () => {
  it('is written after the work its turn had already queued', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const url = await serve(logged);
    const response = await fetch(`${url}/headers-at-next-immediate`);
    expect(await response.json()).toEqual({ ok: true });
    // The handler's setImmediate was queued before the answer existed; written at once, the head
    // would have left before it ran.
    expect(logged.find((line) => line.msg === 'finished')).toMatchObject({ headersSentThen: false });
  });

  it('answers every one of many requests made at once, each its own', async () => {
    const url = await serve();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) => fetch(`${url}/n/${n}`).then((r) => r.json())),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, n) => ({ n })));
  });

  it('hands an answer that cannot be written to the error handlers, as Fastify does, and answers the others', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const url = await serve(logged);
    const broken = await rawRequest(url, 'GET /unwritable HTTP/1.1\r\nHost: x\r\n\r\n');
    const [answer, others] = await Promise.all([
      broken.answer(1_000),
      Promise.all(Array.from({ length: 20 }, (_, n) => fetch(`${url}/n/${n}`).then((r) => r.json()))),
    ]);
    expect(answer.status).toBe(500);
    expect(others).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
    expect(logged.find((line) => line.level === 50)).toMatchObject({ err: { code: 'ERR_INVALID_CHAR' } });
  });
});

describe('the end of a turn', () => {
  it('lets the answers go after the work queued for it, with those the work made at once', async () => {
    const order: string[] = [];
    answerAtTurnEnd(() => order.push('answer made in the turn'));
    // Group commit's flush: its statements never wait, so its answers come in its microtasks.
    atTurnEnd(() => {
      order.push('work');
      void Promise.resolve().then(() => answerAtTurnEnd(() => order.push('answer made by the work')));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['work', 'answer made in the turn', 'answer made by the work']);
  });
});
