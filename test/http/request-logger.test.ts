import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggingOptions, millis, requestIdOf } from '../../src/http/logger.js';

/** The service's logging options on a bare Fastify, its lines captured. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const texts: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line === '') continue;
        texts.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, texts, stream };
}

async function serverWithLog(level = 'info') {
  const { lines, texts, stream } = capture();
  const app = Fastify({ ...loggingOptions(level, stream), genReqId: requestIdOf });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talks', async (request) => {
    request.log.warn({ step: 1 }, 'first word');
    request.log.child({ part: 'inner' }).info('from a child');
    request.log.info('second word');
    return { ok: true };
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  app.get('/level', async (request) => {
    const before = request.log.level;
    request.log.level = 'debug';
    return { before, after: request.log.level };
  });
  await app.ready();
  return { app, lines, texts };
}

describe('request loggers made on first use', () => {
  it('give every line a request logs the request id, as a child made up front would', async () => {
    const { app, lines } = await serverWithLog();
    await app.inject({ url: '/talks', headers: { 'x-request-id': 'talking-1' } });
    await app.inject({ url: '/quiet', headers: { 'x-request-id': 'quiet-1' } });
    await app.close();
    expect(lines.filter((l) => l.reqId === 'talking-1').map((l) => l.msg)).toEqual([
      'first word',
      'from a child',
      'second word',
      'request completed',
    ]);
    expect(lines.find((l) => l.msg === 'first word')).toMatchObject({ level: 40, step: 1 });
    expect(lines.find((l) => l.msg === 'from a child')).toMatchObject({ part: 'inner' });
    expect(lines.filter((l) => l.reqId === 'quiet-1')).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: { id: 'quiet-1', method: 'GET', path: '/quiet' },
        res: { status: 200 },
      }),
    ]);
  });

  it('log a failing request with its id and status', async () => {
    const { app, lines } = await serverWithLog();
    await app.inject({ url: '/fails', headers: { 'x-request-id': 'failing-1' } });
    await app.close();
    const mine = lines.filter((l) => l.reqId === 'failing-1');
    expect(mine.at(-1)).toMatchObject({ msg: 'request completed', res: { status: 500 } });
    expect(mine.some((l) => l.level === 50)).toBe(true);
  });

  it('keep the level of the root logger until told otherwise', async () => {
    const { app } = await serverWithLog();
    const answer = await app.inject({ url: '/level' });
    await app.close();
    expect(answer.json()).toEqual({ before: 'info', after: 'debug' });
  });

  it('write the access line pino would write through a request logger, field for field and in order', async () => {
    const { app, lines, texts } = await serverWithLog();
    await app.inject({ url: '/quiet?q=search-term-marker', headers: { 'x-request-id': 'access-1' } });
    await app.close();
    const ours = lines.find((l) => l.reqId === 'access-1')!;
    expect(texts.find((t) => t.includes('access-1'))).not.toContain('search-term-marker');
    const rendered = capture();
    const { logger } = loggingOptions('info', rendered.stream) as { logger: pino.LoggerOptions };
    const reference = pino({ level: 'info', serializers: logger.serializers }, rendered.stream);
    reference.child({ reqId: 'access-1' }).info(
      {
        req: { id: 'access-1', method: 'GET', url: '/quiet?q=search-term-marker' },
        res: { statusCode: 200 },
        responseTime: ours.responseTime,
      },
      'request completed',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const theirs = rendered.lines[0]!;
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect({ ...ours, time: 0 }).toEqual({ ...theirs, time: 0 });
  });

  it('write a path that JSON must escape as JSON, and the time to the microsecond', async () => {
    const { app, lines } = await serverWithLog();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    // A raw request: an HTTP client library would percent-encode the quote and the backslash.
    const path = '/odd"path\\x';
    const socket = connect(port, '127.0.0.1');
    socket.end(`GET ${path}?q=1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: odd-1\r\nConnection: close\r\n\r\n`);
    await new Promise((resolve) => socket.on('close', resolve).resume());
    await app.close();
    const line = lines.find((l) => l.reqId === 'odd-1' && l.msg === 'request completed')!;
    expect(line).toMatchObject({ req: { path }, res: { status: 404 } });
    expect(String(line.responseTime)).toMatch(/^\d+(\.\d{1,3})?$/);
  });

  it('print milliseconds to the microsecond from integers', () => {
    expect([0, 0.0004, 0.0005, 0.007, 0.07, 0.6822449999999662, 1, 12.3456, 999.9996].map(millis)).toEqual([
      '0.000',
      '0.000',
      '0.001',
      '0.007',
      '0.070',
      '0.682',
      '1.000',
      '12.346',
      '1000.000',
    ]);
  });

  it('write no access line below info', async () => {
    const { app, lines } = await serverWithLog('warn');
    await app.inject({ url: '/quiet', headers: { 'x-request-id': 'quiet-at-warn' } });
    await app.inject({ url: '/fails', headers: { 'x-request-id': 'failing-at-warn' } });
    await app.close();
    expect(lines.filter((l) => l.reqId === 'quiet-at-warn')).toEqual([]);
    expect(lines.some((l) => l.reqId === 'failing-at-warn' && l.level === 50)).toBe(true);
  });
});
