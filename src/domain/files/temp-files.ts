import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteMeter, type StoredBlob } from './blob-store.js';

export interface Received extends StoredBlob {
  path: string;
}

/**
 * Files younger than this are swept only when their writer is known to be gone: an upload of a
 * live process (this one, or another instance sharing DATA_DIR) may still be writing its temp
 * file or sit between writing its blob and committing its row. It must exceed the longest an
 * upload can take.
 */
export const SWEEP_GRACE_MS = 10 * 60_000;

/** This machine in temp file names, reduced to characters that cannot hold the `.` separator. */
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';
/** When this process started: a temp file named with our pid but older was left by a process before us. */
const PROCESS_STARTED_MS = performance.timeOrigin;

/** Temp files are named `<host>.<pid>.<random>`, so a later start can tell whose they are. */
export function tempName(): string {
  return `${HOST}.${process.pid}.${randomBytes(12).toString('hex')}`;
}

/**
 * Streams `source` through `meter` into a new file at `path`. If anything fails, the file is gone
 * by the time this rejects. The file is opened before the first byte is read: a write stream
 * opens its file later, on the thread pool, and pipeline rejects without waiting for that. An
 * open still under way after the removal would leave an empty file behind for the sweep.
 */
export async function streamToNewFile(source: Readable, meter: Transform, path: string): Promise<void> {
  const file = await open(path, 'wx').catch((err: unknown) => {
    source.destroy(); // as pipeline would: nothing will read it
    throw err;
  });
  try {
    await pipeline(source, meter, file.createWriteStream());
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
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
 * Uploads land on the local disk first, whatever the blob store: the photo metadata removal
 * (ExifTool) works on a file, and a refused upload (too large, damaged photo, over quota) never
 * reaches the store. The files live in one directory (`DATA_DIR/blobs/tmp`).
 */
export class TempFiles {
  constructor(readonly dir: string) {}

  /** Streams into a temp file, hashing and counting; over `maxBytes` it stops, removes the file and throws TooLarge. */
  async receive(source: Readable, maxBytes: number): Promise<Received> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, tempName());
    const meter = byteMeter(maxBytes);
    await streamToNewFile(source, meter.stream, path);
    return { path, ...meter.result() };
  }

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * Removes leftovers of interrupted uploads: temp files of writers that are gone (at once) or
   * older than the grace period. Runs at every start and then periodically, for what a crashed
   * instance sharing DATA_DIR leaves behind.
   */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info === null) continue;
      if (!writerGone(name, info.mtimeMs) && now - info.ctimeMs < SWEEP_GRACE_MS) continue;
      await rm(path, { force: true });
      removed++;
    }
    return removed;
  }
}
