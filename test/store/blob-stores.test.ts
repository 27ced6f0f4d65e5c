import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobMissing, blobKey, type BlobListing, type BlobStore } from '../../src/domain/files/blob-store.js';
import { DiskBlobStore } from '../../src/store/blob-store-disk.js';
import { S3BlobStore } from '../../src/store/blob-store-s3.js';
import { loadConfig, type S3Config } from '../../src/config.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';

async function listAll(store: BlobStore): Promise<BlobListing[]> {
  const all: BlobListing[] = [];
  for await (const page of store.list()) all.push(...page);
  return all;
}

// One contract, two stores: what the domain relies on holds for the disk and for S3 alike.
describe.each(['disk', 's3'] as const)('the %s blob store', (kind) => {
  let dir: string;
  let s3: S3Server | null = null;
  let store: BlobStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tasktree-blobs-'));
    if (kind === 'disk') {
      store = new DiskBlobStore(join(dir, 'blobs'));
    } else {
      s3 = await startS3Server();
      store = new S3BlobStore(
        loadConfig({ DATA_DIR: dir, SECRET: 'blob-store-test-secret-0123', ...s3.env }).blobStore as S3Config,
      );
    }
  });
  afterAll(async () => {
    await store.close();
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a stream, measuring it on the way, and reads it back whole or by range', async () => {
    const data = randomBytes(300_000);
    const key = blobKey('usr_store', 'att_one');
    expect(await store.stat(key)).toBeNull();
    const stored = await store.put(key, Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
    expect(stored).toEqual({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    expect(await store.stat(key)).toEqual({ size: data.length });
    expect((await buffer(await store.get(key))).equals(data)).toBe(true);
    expect((await buffer(await store.get(key, { start: 1000, end: 1999 }))).equals(data.subarray(1000, 2000))).toBe(
      true,
    );
    expect(
      (await buffer(await store.get(key, { start: data.length - 1, end: data.length - 1 }))).equals(data.subarray(-1)),
    ).toBe(true);
  });

  it('lists what it holds with its age, removes idempotently, and says when an object is missing', async () => {
    const key = blobKey('usr_store', 'att_two');
    const before = Date.now();
    await store.put(key, Readable.from([Buffer.from('two')]));
    const listed = await listAll(store);
    expect(listed.map((blob) => blob.key).sort()).toEqual([blobKey('usr_store', 'att_one'), key]);
    // S3 keeps whole seconds.
    for (const blob of listed)
      expect(blob.modifiedMs).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 60_000);
    await store.remove(key);
    await store.remove(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobMissing);
    expect((await listAll(store)).map((blob) => blob.key)).toEqual([blobKey('usr_store', 'att_one')]);
  });

  it('refuses keys the service does not make', () => {
    expect(() => blobKey('../etc', 'passwd')).toThrow();
    expect(() => blobKey('usr_x', 'a/b')).toThrow();
  });
});
