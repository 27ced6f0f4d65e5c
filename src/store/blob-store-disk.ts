import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobMissing,
  byteMeter,
  parseBlobKey,
  type BlobListing,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from '../domain/files/blob-store.js';
import { streamToNewFile, tempName } from '../domain/files/temp-files.js';

/** How many objects the sweep gets per page, so one database query covers many. */
const PAGE = 500;

/**
 * Attachment content on the local disk under `DATA_DIR/blobs`: one file per attachment at
 * `<owner>/<attachment id>`, written first into `tmp/` and renamed into place, so a reader never
 * sees half a file (and a crash mid-write leaves a temp file for the temp sweep).
 */
export class DiskBlobStore implements BlobStore {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = join(root, 'tmp');
  }

  get description(): string {
    return `disk ${this.root}`;
  }

  private pathOf(key: string): string {
    const parts = parseBlobKey(key);
    if (parts === null) throw new Error('not a blob key');
    return join(this.root, parts.ownerId, parts.attachmentId);
  }

  async put(key: string, body: Readable): Promise<StoredBlob> {
    const path = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    const temp = join(this.tmpDir, tempName());
    const meter = byteMeter();
    await streamToNewFile(body, meter.stream, temp);
    try {
      await mkdir(join(path, '..'), { recursive: true });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return meter.result();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    // Opened before the answer starts, so a missing file is an error of its own, not a broken body.
    const stream = createReadStream(path, range === undefined ? {} : { start: range.start, end: range.end });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new BlobMissing(key) : err));
    });
    return stream;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const info = await stat(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    return info === null ? null : { size: info.size };
  }

  async remove(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /** Owner directories and their files; `tmp/` is the temp sweep's. Ages are ctime, which no copy or touch can set back. */
  async *list(): AsyncIterable<BlobListing[]> {
    let page: BlobListing[] = [];
    for (const owner of await readdir(this.root).catch(() => [] as string[])) {
      if (owner === 'tmp') continue;
      for (const file of await readdir(join(this.root, owner)).catch(() => [] as string[])) {
        const info = await stat(join(this.root, owner, file)).catch(() => null);
        if (info === null || !info.isFile()) continue;
        page.push({ key: `${owner}/${file}`, modifiedMs: info.ctimeMs });
        if (page.length === PAGE) {
          yield page;
          page = [];
        }
      }
    }
    if (page.length > 0) yield page;
  }

  async close(): Promise<void> {}
}
