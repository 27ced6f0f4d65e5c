import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { databases, type DatabaseKind } from './app.js';
import { startS3Server } from './s3-server.js';

export type BlobStoreKind = 'disk' | 's3';

/** Every database with both blob stores, for `describe.each(storeMatrix)('… (%s, %s)', (db, store) => …)`. */
export const storeMatrix: [DatabaseKind, BlobStoreKind][] = databases.flatMap((db) =>
  (['disk', 's3'] as const).map((store) => [db, store] as [DatabaseKind, BlobStoreKind]),
);

/** A blob store for a test app, looked at around the app: files under DATA_DIR/blobs, or the bucket. */
export interface TestBlobStore {
  kind: BlobStoreKind;
  /** Settings to give makeTestEnv / startTestApp (none for the disk). */
  env: Record<string, string>;
  /** Every stored key, `<owner>/<attachment>`, sorted. */
  keys(dataDir: string): Promise<string[]>;
  /** Plants an object as a crash between writing it and committing its row leaves it. */
  write(dataDir: string, key: string, body: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startBlobStore(kind: BlobStoreKind): Promise<TestBlobStore> {
  if (kind === 's3') {
    const s3 = await startS3Server();
    return {
      kind,
      env: s3.env,
      keys: () => s3.keys(),
      write: (_dataDir, key, body) => s3.write(key, body),
      stop: () => s3.stop(),
    };
  }
  return {
    kind,
    env: {},
    async keys(dataDir) {
      const root = join(dataDir, 'blobs');
      if (!existsSync(root)) return [];
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)))
        .filter((key) => !key.startsWith('tmp/'))
        .sort();
    },
    async write(dataDir, key, body) {
      const path = join(dataDir, 'blobs', key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, body);
    },
    async stop() {},
  };
}
