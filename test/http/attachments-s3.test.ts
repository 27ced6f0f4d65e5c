import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { download, upload } from '../helpers/files.js';
import type { Client } from '../helpers/client.js';
import { sweepBlobs } from '../../src/domain/files/blob-sweep.js';

// What only the S3 store has: multipart uploads, S3's own Range, and a store that can be down.
// attachments.test.ts runs every other attachment case against both stores.
describe.each(databases)('attachments in S3 (%s)', (kind) => {
  let s3: S3Server;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Client;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp(kind, s3.env);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(alice)).agent;
  });
  afterAll(async () => {
    await t?.stop();
    await s3?.stop();
  });

  const tempFiles = () => {
    const dir = join(t.env.dataDir, 'blobs', 'tmp');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it('streams a large file up in parts and serves any byte range of it from S3', { timeout: 60_000 }, async () => {
    const task = await makeTask(agent, (await makeTree(agent)).id);
    const data = randomBytes(12 * 1024 * 1024 + 123);
    s3.requests.splice(0);
    const created = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data, name: 'large.bin' }]);
    expect(created.status).toBe(201);
    const { id, size, sha256 } = created.body.attachment;
    expect({ size, sha256 }).toEqual({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') });

    const key = `${alice.user.id}/${id}`;
    expect(await s3.keys()).toContain(key);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}/${key}` }));
    expect(head.ContentLength).toBe(data.length);
    // A multipart upload of three parts of at most 5 MiB, never one body of 12 MiB.
    const object = `/${s3.bucket}/${s3.prefix}/${key}`;
    expect(s3.requests.filter((r) => r.startsWith(`POST ${object}?uploads`))).toHaveLength(1);
    expect(s3.requests.filter((r) => r.startsWith(`PUT ${object}?`) && /[?&]partNumber=\d/.test(r))).toHaveLength(3);
    expect(s3.requests.filter((r) => r.startsWith(`POST ${object}?uploadId=`))).toHaveLength(1);
    expect(s3.requests).not.toContain(`PUT ${object}`);
    expect(tempFiles()).toEqual([]);

    const url = `${t.url}/api/v1/attachments/${id}/content`;
    const whole = await download(agent, url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(data)).toBe(true);
    // Across the first part boundary (5 MiB), from the middle to the end, and a suffix.
    const boundary = 5 * 1024 * 1024;
    for (const [range, start, end] of [
      [`bytes=${boundary - 10}-${boundary + 9}`, boundary - 10, boundary + 9],
      [`bytes=${data.length - 50}-`, data.length - 50, data.length - 1],
      ['bytes=-7', data.length - 7, data.length - 1],
    ] as const) {
      s3.requests.splice(0);
      const part = await download(agent, url, { range });
      expect(part.status, range).toBe(206);
      // S3 was asked for exactly that range, not the whole object.
      expect(s3.requests).toEqual([`GET ${object}?x-id=GetObject bytes=${start}-${end}`]);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${data.length}`);
      expect(part.headers.get('content-length')).toBe(String(end - start + 1));
      expect(part.bytes.equals(data.subarray(start, end + 1)), range).toBe(true);
      expect(part.headers.get('content-disposition')).toBe(
        `attachment; filename="large.bin"; filename*=UTF-8''large.bin`,
      );
      expect(part.headers.get('x-content-type-options')).toBe('nosniff');
      expect(part.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
    const outside = await download(agent, url, { range: `bytes=${data.length}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${data.length}`);

    expect((await agent.delete(`/api/v1/attachments/${id}`)).status).toBe(200);
    expect(await s3.keys()).not.toContain(key);
  });

  it('a store that is down: uploads answer 503 and keep nothing, deletes still work and the sweep catches up', async () => {
    const task = await makeTask(agent, (await makeTree(agent)).id);
    const path = `/api/v1/tasks/${task.id}/attachments`;
    const kept = (await upload(agent, path, [{ data: Buffer.from('stored before the outage'), name: 'kept.txt' }])).body
      .attachment;
    const doomed = (await upload(agent, path, [{ data: Buffer.from('deleted during the outage') }])).body.attachment;
    const before = await s3.keys();

    await s3.down();
    try {
      const refused = await upload(agent, path, [{ data: Buffer.from('no store to put me in'), name: 'lost.txt' }]);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        error: { code: 'storage_unavailable', message: expect.any(String), request_id: expect.any(String) },
      });
      expect(JSON.stringify(refused.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      expect((await agent.get(path)).body.items.map((a: { id: string }) => a.id)).toEqual([kept.id, doomed.id]);
      expect(tempFiles()).toEqual([]);

      const content = await download(agent, `${t.url}/api/v1/attachments/${kept.id}/content`);
      expect(content.status).toBe(503);
      expect(JSON.parse(content.bytes.toString()).error.code).toBe('storage_unavailable');
      expect(content.headers.get('content-disposition')).toBeNull();

      // The row goes at once; its object cannot, and waits for the sweep.
      expect((await agent.delete(`/api/v1/attachments/${doomed.id}`)).status).toBe(200);
      expect((await agent.get(`/api/v1/attachments/${doomed.id}`)).status).toBe(404);
    } finally {
      await s3.up();
    }
    expect(await s3.keys()).toEqual(before);
    expect(await sweepBlobs(t.app.deps, Date.now() + 11 * 60_000)).toBe(1);
    expect(await s3.keys()).not.toContain(`${alice.user.id}/${doomed.id}`);
    expect(await s3.keys()).toContain(`${alice.user.id}/${kept.id}`);
    expect((await download(agent, `${t.url}/api/v1/attachments/${kept.id}/content`)).bytes.toString()).toBe(
      'stored before the outage',
    );
  });
});
