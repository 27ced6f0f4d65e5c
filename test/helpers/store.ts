import { afterAll, beforeAll } from 'vitest';
import { Migrator } from 'kysely';
import { makeTestEnv, type DatabaseKind, type TestEnv } from './app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';

/**
 * A store of `kind` (a data directory or PostgreSQL schema of its own) for the tests of the
 * enclosing describe, closed after them; migrated to the latest schema unless `migrate` is false
 * (migration tests step it themselves with `migratorOf`). Call the returned function inside a test.
 */
export function useStore(kind: DatabaseKind, options: { migrate?: boolean } = {}): () => Store {
  let env: TestEnv;
  let store: Store;
  beforeAll(async () => {
    env = makeTestEnv(kind);
    store = await openStore(env.config);
    if (options.migrate !== false) await migrateToLatest(store);
  });
  afterAll(async () => {
    await store.close();
    await env.dispose();
  });
  return () => store;
}

/** A migrator over every migration of the store, to move its schema to any one of them. */
export function migratorOf(store: Store): Migrator {
  return new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
}
