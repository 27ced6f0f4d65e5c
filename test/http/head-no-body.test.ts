import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { rawRequest } from '../helpers/raw-http.js';

/** CONTRACT §19: a HEAD's answer never carries a body, whoever answers it. */
describe.each(databases)('HEAD never carries a body (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { HEADERS_TIMEOUT_SECONDS: '0.5' });
    token = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).value;
  });
  afterAll(async () => t.stop());

  const request = (method: string, path: string, extra = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: tasktree.test\r\n${extra}\r\n`;
  const oversized = `X-Padding: ${'p'.repeat(20_000)}\r\n`;
  const healthz = request('GET', '/healthz');

  const exchange = (bytes: string) => rawRequest(t.url, bytes);

  describe('answers made before any request exists (the HTTP parser)', () => {
    it('a HEAD with headers over the limit is 431 with a head only; the connection closes with nothing after it', async () => {
      // A GET pipelined behind it must not be answered by bytes of the HEAD's answer.
      const sent = await exchange(request('HEAD', '/healthz', oversized) + healthz);
      await sent.closes(5000);
      const { answers, rest, closed } = await sent.responses(['HEAD'], 0);
      sent.socket.destroy();
      expect(answers.map((a) => a.status)).toEqual([431]);
      expect(answers[0]!.headers['x-request-id']).toEqual(expect.any(String));
      expect(closed).toBe(true);
      expect(rest).toBe('');
    });

    it('the same when the head arrives in pieces and the piece that overflows does not show the method', async () => {
      const bytes = request('HEAD', '/healthz', oversized);
      const sent = await exchange(bytes.slice(0, 8_000));
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent.socket.write(bytes.slice(8_000));
      await sent.closes(5000);
      const { answers, rest, closed } = await sent.responses(['HEAD'], 0);
      sent.socket.destroy();
      expect(answers.map((a) => a.status)).toEqual([431]);
      expect({ closed, rest }).toEqual({ closed: true, rest: '' });
    });

    it('the same for a HEAD after an answered request on a kept-alive connection, and after one pipelined in the same write', async () => {
      const kept = await exchange(healthz);
      expect((await kept.responses(['GET'], 5000)).answers.map((a) => a.status)).toEqual([200]);
      kept.socket.write(request('HEAD', '/healthz', oversized));
      await kept.closes(5000);
      const second = await kept.responses(['GET', 'HEAD'], 0);
      kept.socket.destroy();
      expect(second.answers.map((a) => a.status)).toEqual([200, 431]);
      expect({ closed: second.closed, rest: second.rest }).toEqual({ closed: true, rest: '' });

      // Pipelined behind a GET still being answered, the failure answers the connection (Node
      // writes nothing after it); which request it meets is not known, so it has no body either.
      const pipelined = await exchange(healthz + request('HEAD', '/healthz', oversized));
      await pipelined.closes(5000);
      const both = await pipelined.responses(['GET'], 0);
      pipelined.socket.destroy();
      expect(both.answers.map((a) => [a.status, a.text])).toEqual([[431, '']]);
      expect(both.answers[0]!.headers['content-length']).toBeUndefined();
      expect({ closed: both.closed, rest: both.rest }).toEqual({ closed: true, rest: '' });
    });

    it('a malformed HEAD is 400 with a head only', async () => {
      for (const bytes of [
        'HEAD /healthz HTTP/1.1\r\nBad Header Name: x\r\n\r\n',
        'HEAD /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
        'HEAD /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      ]) {
        const sent = await exchange(bytes + healthz);
        await sent.closes(5000);
        const { answers, rest, closed } = await sent.responses(['HEAD'], 0);
        sent.socket.destroy();
        expect(
          answers.map((a) => a.status),
          bytes,
        ).toEqual([400]);
        expect({ closed, rest }, bytes).toEqual({ closed: true, rest: '' });
      }
    });

    it('a HEAD whose head stops arriving is 408 with a head only', async () => {
      const sent = await exchange('HEAD /healthz HTTP/1.1\r\nHost: x\r\n');
      await sent.closes(5000);
      const { answers, rest, closed } = await sent.responses(['HEAD'], 0);
      sent.socket.destroy();
      expect(answers.map((a) => a.status)).toEqual([408]);
      expect({ closed, rest }).toEqual({ closed: true, rest: '' });
    });

    it('a GET whose start is at hand keeps its contract body', async () => {
      const sent = await exchange(request('GET', '/healthz', oversized));
      const { answers } = await sent.responses(['GET'], 5000);
      sent.socket.destroy();
      expect(answers[0]).toMatchObject({ status: 431, body: { error: { code: 'validation_failed' } } });
    });
  });

  it('answers of the router and the error handlers have a head only, and the next request on the connection reads cleanly', async () => {
    const auth = `Authorization: Bearer ${token}\r\n`;
    const cases: [path: string, extra: string, status: number][] = [
      ['/no-such-page', '', 404],
      ['/api/v1/no-such-thing', auth, 404],
      ['/oauth/register', '', 405],
      ['/api/v1/tasks/%zz', auth, 400],
      ['/api/v1/trees', '', 401],
      ['/api/v1/tasks/tsk_unknown', auth, 404],
      [`/api/v1/tasks/tsk_${'a'.repeat(200)}`, auth, 400],
      ['/oauth/authorize', '', 400],
      ['/healthz', '', 200],
    ];
    for (const [path, extra, status] of cases) {
      const sent = await exchange(request('HEAD', path, extra) + healthz);
      const { answers, rest } = await sent.responses(['HEAD', 'GET'], 5000);
      sent.socket.destroy();
      expect(
        answers.map((a) => a.status),
        path,
      ).toEqual([status, 200]);
      expect(answers[0]!.text, path).toBe('');
      expect(answers[1]!.body, path).toEqual({ status: 'ok' });
      expect(rest, path).toBe('');
    }
  });
});
