import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import type { Client } from '../helpers/client.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';

/** CONTRACT §1: every failure, whatever broke, is this body, with the id also in X-Request-Id. */
function expectContractError(
  answer: { status: number | null; body: any; requestIdHeader: string | null | undefined },
  status: number,
  code: string,
) {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toEqual({
    code,
    message: expect.any(String),
    request_id: expect.any(String),
    ...('details' in answer.body.error ? { details: expect.any(Array) } : {}),
  });
  expect(answer.requestIdHeader).toBe(answer.body.error.request_id);
}

const raw = (answer: RawAnswer) => ({
  status: answer.status,
  body: answer.body,
  requestIdHeader: answer.headers['x-request-id'],
});

describe.each(databases)('answers outside the routes keep the contract body (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { HEADERS_TIMEOUT_SECONDS: '0.5' });
    const made = await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }));
    agent = made.agent;
    token = made.value;
  });
  afterAll(async () => t.stop());

  const get = (path: string, extra = '') =>
    `GET ${path} HTTP/1.1\r\nHost: tasktree.test\r\nAuthorization: Bearer ${token}\r\n${extra}Connection: close\r\n\r\n`;
  async function send(bytes: string): Promise<RawAnswer> {
    const exchange = await rawRequest(t.url, bytes);
    const answer = await exchange.answer(3000);
    exchange.socket.destroy();
    return answer;
  }

  it('a path that is not valid percent-encoding is 400 validation_failed', async () => {
    expectContractError(raw(await send(get('/api/v1/tasks/%E0%A4%A'))), 400, 'validation_failed');
    expectContractError(raw(await send(get('/api/v1/tasks/%zz'))), 400, 'validation_failed');
  });

  it('an id of any length the server accepts is judged by validation (400), never the router (414)', async () => {
    for (const length of [161, 2049, 12_000]) {
      const answer = await send(get(`/api/v1/tasks/tsk_${'a'.repeat(length)}`));
      expectContractError(raw(answer), 400, 'validation_failed');
      expect(answer.body.error.details).toEqual([{ path: '/id', message: expect.any(String), in: 'path' }]);
    }
    // An unknown method on such a path still finds the route: 405 with Allow, not 404.
    const put = await send(
      `PUT /api/v1/tasks/tsk_${'a'.repeat(3000)} HTTP/1.1\r\nHost: tasktree.test\r\nConnection: close\r\n\r\n`,
    );
    expectContractError(raw(put), 405, 'method_not_allowed');
    expect(put.headers.allow).toBe('GET, PATCH, DELETE');
  });

  it('headers over the limit are 431, in the contract body', async () => {
    expectContractError(
      raw(await send(get('/api/v1/auth/me', `X-Padding: ${'p'.repeat(20_000)}\r\n`))),
      431,
      'validation_failed',
    );
    expectContractError(raw(await send(get(`/api/v1/tasks/${'a'.repeat(20_000)}`))), 431, 'validation_failed');
  });

  it('malformed framing is 400, in the contract body, and the connection is closed', async () => {
    const cases = [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /api/v1/trees HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      'POST /api/v1/trees HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nBad Header Name: x\r\n\r\n',
    ];
    for (const bytes of cases) {
      const exchange = await rawRequest(t.url, bytes);
      const answer = await exchange.answer(3000);
      expectContractError(raw(answer), 400, 'validation_failed');
      expect(await exchange.closes(2000)).toBe(true);
    }
  });

  it('a connection that sends nothing is answered 408 request_timeout and closed', async () => {
    const exchange = await rawRequest(t.url, '');
    const answer = await exchange.answer(4000);
    expectContractError(raw(answer), 408, 'request_timeout');
    expect(await exchange.closes(2000)).toBe(true);
  });

  it('body parsing failures keep the contract body: 415, 400 invalid_json, 413 over 1 MiB', async () => {
    const viaFetch = async (init: RequestInit) => {
      const response = await fetch(`${t.url}/api/v1/trees`, {
        method: 'POST',
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
      return {
        status: response.status,
        body: await response.json(),
        requestIdHeader: response.headers.get('x-request-id'),
      };
    };
    expectContractError(
      await viaFetch({ headers: { 'content-type': 'text/plain' }, body: 'name=Garden' }),
      415,
      'unsupported_media_type',
    );
    expectContractError(
      await viaFetch({ headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' }),
      415,
      'unsupported_media_type',
    );
    expectContractError(
      await viaFetch({ headers: { 'content-type': 'application/json' }, body: '{"name": ' }),
      400,
      'invalid_json',
    );
    expectContractError(
      await viaFetch({
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
      }),
      413,
      'payload_too_large',
    );
  });

  it('unknown routes and methods keep the contract body', async () => {
    const missing = await agent.get('/api/v1/no-such-thing');
    expectContractError({ ...missing, requestIdHeader: missing.headers.get('x-request-id') }, 404, 'not_found');
    const wrongMethod = await agent.request('PATCH', '/healthz');
    expectContractError(
      { ...wrongMethod, requestIdHeader: wrongMethod.headers.get('x-request-id') },
      405,
      'method_not_allowed',
    );
  });

  it('/mcp failures are JSON-RPC errors that carry the contract code and the request id in error.data', async () => {
    const post = async (body: string, headers: Record<string, string>) => {
      const response = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        body,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
      });
      return {
        status: response.status,
        body: (await response.json()) as any,
        requestId: response.headers.get('x-request-id'),
      };
    };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const cases: [string, Record<string, string>, number, string][] = [
      [list, {}, 400, 'validation_failed'],
      [list, { 'mcp-session-id': 'no-such-session' }, 404, 'not_found'],
      [
        JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
        {},
        400,
        'validation_failed',
      ],
      ['[1, 2]', {}, 400, 'validation_failed'],
    ];
    for (const [body, headers, status, code] of cases) {
      const answer = await post(body, headers);
      expect({ status: answer.status, data: answer.body.error.data }).toEqual({
        status,
        data: { code, request_id: answer.requestId },
      });
      expect(answer.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number), message: expect.any(String) },
      });
    }
  });
});
