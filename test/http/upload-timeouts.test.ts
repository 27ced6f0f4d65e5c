import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';

const BOUNDARY = 'tasktreeTestBoundary';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`;
const CONTENT = 'the first half of a file that never finishes; '.repeat(200);
const WHOLE = `${HEAD}${CONTENT}\r\n--${BOUNDARY}--\r\n`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectContractError(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({
    error: {
      code,
      message: expect.any(String),
      request_id: expect.any(String),
      ...(answer.body?.error?.details ? { details: expect.any(Array) } : {}),
    },
  });
  expect(answer.headers['x-request-id']).toBe(answer.body.error.request_id);
}

describe.each(databases)('uploads that never finish (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let token: string;
  let taskId: string;
  let tmpDir: string;

  beforeAll(async () => {
    // Short timeouts so the test waits fractions of a second; a fake provider address so the
    // transcription route reads its upload (no job is ever created, so it is never called).
    t = await startTestApp(kind, {
      BODY_IDLE_TIMEOUT_SECONDS: '0.4',
      REQUEST_TIMEOUT_SECONDS: '2',
      HEADERS_TIMEOUT_SECONDS: '1',
      SPEECH_API_URL: 'http://127.0.0.1:9/v1',
    });
    tmpDir = join(t.env.dataDir, 'blobs', 'tmp');
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice);
    token = made.value;
    taskId = (await makeTask(made.agent, (await makeTree(made.agent)).id)).id;
  });
  afterAll(async () => t.stop());

  const head = (path: string, length: number, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    `POST ${path} HTTP/1.1\r\nHost: tasktree.test\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;
  const tempFiles = () => (existsSync(tmpDir) ? readdirSync(tmpDir) : []);
  const storedRows = async () => {
    const attachments = await t.app.deps.db
      .selectFrom('attachments')
      .select('id')
      .where('task_id', '=', taskId)
      .execute();
    const jobs = await t.app.deps.db.selectFrom('speech_jobs').select('id').where('task_id', '=', taskId).execute();
    return attachments.length + jobs.length;
  };
  /** A temp file may be removed a moment after the socket closes (the handler is still unwinding). */
  async function noTempFileSoon() {
    for (let i = 0; i < 40 && tempFiles().length > 0; i++) await sleep(50);
    expect(tempFiles()).toEqual([]);
  }

  it.each(['attachments', 'transcriptions'])(
    'a body that stops arriving is 400 after the idle timeout, closed, and leaves nothing (%s)',
    async (route) => {
      const partial = HEAD + CONTENT.slice(0, 3000);
      const exchange = await rawRequest(
        t.url,
        head(`/api/v1/tasks/${taskId}/${route}`, Buffer.byteLength(WHOLE)) + partial,
      );
      const started = Date.now();
      const answer = await exchange.answer(5000);
      expect(Date.now() - started).toBeLessThan(4000);
      expectContractError(answer, 400, 'validation_failed');
      expect(answer.headers.connection).toBe('close');
      expect(await exchange.closes(2000)).toBe(true);
      await noTempFileSoon();
      expect(await storedRows()).toBe(0);
    },
  );

  it('a client that leaves mid-upload leaves no temp file and no row', async () => {
    const exchange = await rawRequest(
      t.url,
      head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(WHOLE)) + HEAD + CONTENT.slice(0, 3000),
    );
    // Let the server start streaming the file into its temp file, then vanish.
    for (let i = 0; i < 40 && tempFiles().length === 0; i++) await sleep(10);
    exchange.socket.destroy();
    await noTempFileSoon();
    expect(await storedRows()).toBe(0);
  });

  it('a client that ends its side early gets 400 and leaves nothing', async () => {
    const exchange = await rawRequest(
      t.url,
      head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(WHOLE)) + HEAD + CONTENT.slice(0, 3000),
    );
    await sleep(50);
    exchange.socket.end();
    const answer = await exchange.answer(3000);
    expectContractError(answer, 400, 'validation_failed');
    expect(await exchange.closes(2000)).toBe(true);
    await noTempFileSoon();
    expect(await storedRows()).toBe(0);
  });

  it('a body that trickles in past the request timeout is 408, closed, and leaves nothing', async () => {
    const exchange = await rawRequest(
      t.url,
      head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(WHOLE)) + HEAD,
    );
    const trickle = setInterval(() => exchange.socket.write('x'), 100);
    try {
      const answer = await exchange.answer(6000);
      expectContractError(answer, 408, 'request_timeout');
      expect(await exchange.closes(2000)).toBe(true);
    } finally {
      clearInterval(trickle);
    }
    await noTempFileSoon();
    expect(await storedRows()).toBe(0);
  });

  it('a complete body without its closing boundary, or with a broken part header, is 400', async () => {
    const unclosed = HEAD + 'short file';
    const a = await rawRequest(
      t.url,
      head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(unclosed)) + unclosed,
    );
    expectContractError(await a.answer(3000), 400, 'validation_failed');
    const broken = `--${BOUNDARY}\r\nthis is not a header line\r\n\r\ncontent\r\n--${BOUNDARY}--\r\n`;
    const b = await rawRequest(t.url, head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(broken)) + broken);
    expectContractError(await b.answer(3000), 400, 'validation_failed');
    b.socket.destroy();
    await noTempFileSoon();
    expect(await storedRows()).toBe(0);
  });

  it('multipart/form-data without a boundary is 400 validation_failed naming the header', async () => {
    for (const route of ['attachments', 'transcriptions']) {
      const exchange = await rawRequest(
        t.url,
        head(`/api/v1/tasks/${taskId}/${route}`, Buffer.byteLength(WHOLE), 'multipart/form-data') + WHOLE,
      );
      const answer = await exchange.answer(3000);
      expectContractError(answer, 400, 'validation_failed');
      expect(answer.body.error.details).toEqual([{ path: '/content-type', message: expect.any(String), in: 'header' }]);
      exchange.socket.destroy();
    }
    expect(await storedRows()).toBe(0);
  });

  it('a whole upload over the same raw socket still works (the guard does not get in the way)', async () => {
    const exchange = await rawRequest(
      t.url,
      head(`/api/v1/tasks/${taskId}/attachments`, Buffer.byteLength(WHOLE)) + WHOLE,
    );
    const answer = await exchange.answer(3000);
    expect(answer.status).toBe(201);
    expect(answer.body.attachment.size).toBe(Buffer.byteLength(CONTENT));
    // Kept alive past the idle timeout: the idle timer was disarmed when the body ended.
    expect(await exchange.closes(800)).toBe(false);
    exchange.socket.destroy();
    const db = t.app.deps.db;
    await db.deleteFrom('attachments').where('id', '=', answer.body.attachment.id).execute();
  });
});
