import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../store/db.js';

export interface Received {
  path: string;
  size: number;
  sha256: string;
}

/** A temp file that has grown past its limit: the caller answers 413 and nothing is kept. */
export class TooLarge extends Error {}

/**
 * Files younger than this are swept only when their writer is known to be gone: an upload of a
 * live process (this one, or another instance sharing DATA_DIR) may still be writing its temp
 * file or sit between rename and commit. It must exceed the longest an upload can take.
 */
const SWEEP_GRACE_MS = 10 * 60_000;

/** This machine in temp file names, reduced to characters that cannot hold the `.` separator. */
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';
/** When this process started: a temp file named with our pid but older was left by a process before us. */
const PROCESS_STARTED_MS = performance.timeOrigin;

/** Temp files are named `<host>.<pid>.<random>`, so a later start can tell whose they are. */
function tempName(): string {
  return `${HOST}.${process.pid}.${randomBytes(12).toString('hex')}`;
}

/**
 * Whether the process that wrote a temp file has certainly ended, so nothing can write it any
 * more: it ran on this machine and either no process has its pid now, or the pid is ours (as
 * in a container, where every start is pid 1) and the file is older than this process. A file
 * of another machine, a live pid or an older name is left to the grace period.
 */
function writerGone(name: string, modifiedMs: number): boolean {
  const [host, pidText] = name.split('.');
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return modifiedMs < PROCESS_STARTED_MS;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Attachment content on disk under `DATA_DIR/blobs`: one file per attachment at
 * `<owner>/<attachment id>`, written first to `tmp/` and renamed into place, so a reader never
 * sees half a file. The database row is the truth; a blob without a row (a crash between
 * rename and commit) is swept at start and then hourly.
 */
export class BlobStore {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = join(root, 'tmp');
  }

  pathOf(ownerId: string, attachmentId: string): string {
    return join(this.root, ownerId, attachmentId);
  }

  /** Streams into a temp file, hashing and counting; over `maxBytes` it stops, removes the file and throws TooLarge. */
  async receive(source: Readable, maxBytes: number): Promise<Received> {
    await mkdir(this.tmpDir, { recursive: true });
    const path = join(this.tmpDir, tempName());
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new TooLarge());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(path, { flags: 'wx' }));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return { path, size, sha256: hash.digest('hex') };
  }

  /** Size and sha256 of a file as it is now (after metadata removal rewrote it). */
  async measure(path: string): Promise<{ size: number; sha256: string }> {
    const hash = createHash('sha256');
    await pipeline(createReadStream(path), hash);
    return { size: (await stat(path)).size, sha256: hash.digest('hex') };
  }

  async place(tempPath: string, ownerId: string, attachmentId: string): Promise<void> {
    await mkdir(join(this.root, ownerId), { recursive: true });
    await rename(tempPath, this.pathOf(ownerId, attachmentId));
  }

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  async remove(ownerId: string, attachmentId: string): Promise<void> {
    await unlink(this.pathOf(ownerId, attachmentId)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /**
   * Removes leftovers of interrupted uploads: temp files of writers that are gone (at once) or
   * older than the grace period, and blobs whose row never committed. Runs at every start and
   * then periodically, for what a crashed instance sharing DATA_DIR leaves behind.
   */
  async sweep(db: Db, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
      const dir = join(this.root, name);
      const files = await readdir(dir).catch(() => [] as string[]);
      if (files.length === 0) continue;
      // One query per owner directory, not per file.
      const kept = name === 'tmp' ? new Set<string>() : new Set((await db.selectFrom('attachments').select('id').where('owner_id', '=', name).execute()).map((r) => r.id));
      for (const file of files) {
        const path = join(dir, file);
        const info = await stat(path).catch(() => null);
        if (info === null) continue;
        const abandoned = name === 'tmp' && writerGone(file, info.mtimeMs);
        if (!abandoned && now - info.ctimeMs < SWEEP_GRACE_MS) continue;
        if (!kept.has(file)) {
          await rm(path, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
