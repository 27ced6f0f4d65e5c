import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { blobKey, byteMeter, TooLarge } from '../../src/domain/files/blob-store.js';
import { streamToNewFile, TempFiles, tempName } from '../../src/domain/files/temp-files.js';
import { DiskBlobStore } from '../../src/store/blob-store-disk.js';

/** A body that fails at its first read, as the file part of a broken form does. */
function failingBody(onFirstRead: () => void = () => {}): Readable {
  return new Readable({
    read() {
      onFirstRead();
      this.destroy(new Error('Part terminated early'));
    },
  });
}

describe('a temp file of a failed write', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tasktree-temp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exists before the first byte is read, so its removal cannot race its opening', async () => {
    // A write stream opens its file on the thread pool, while pipeline has already started
    // reading; an open that completed after the removal left an empty file behind (an upload
    // flake in CI). Whether it had completed by the first read was chance, so many rounds.
    for (let round = 0; round < 50; round++) {
      const path = join(dir, tempName());
      let existedAtFirstRead = false;
      const body = failingBody(() => (existedAtFirstRead = existsSync(path)));
      await expect(streamToNewFile(body, byteMeter().stream, path)).rejects.toThrow('Part terminated early');
      expect(existedAtFirstRead).toBe(true);
      expect(existsSync(path)).toBe(false);
    }
  });

  it('is removed for every failed upload, over-size upload and disk store write', async () => {
    const temps = new TempFiles(join(dir, 'uploads'));
    const store = new DiskBlobStore(join(dir, 'blobs'));
    for (let round = 0; round < 100; round++) {
      await expect(temps.receive(failingBody(), 1000)).rejects.toThrow('Part terminated early');
      await expect(store.put(blobKey('usr_temp', `att_${round}`), failingBody())).rejects.toThrow(
        'Part terminated early',
      );
      await expect(temps.receive(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).rejects.toBeInstanceOf(
        TooLarge,
      );
    }
    await sleep(50);
    expect(readdirSync(temps.dir)).toEqual([]);
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('is not created when its name is taken, and the body is released', async () => {
    const path = join(dir, tempName());
    await streamToNewFile(Readable.from([Buffer.from('first')]), byteMeter().stream, path);
    const body = Readable.from([Buffer.from('second')]);
    await expect(streamToNewFile(body, byteMeter().stream, path)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(body.destroyed).toBe(true);
    expect(existsSync(path)).toBe(true);
  });
});
