import { afterAll, beforeAll } from 'vitest';
import { Migrator } from 'kysely';
import { makeTestEnv, type DatabaseKind, type TestEnv } from './app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';

/** A migrator over the service's migrations, for tests that stop at one and check the next's data move. */
export function migratorOf(store: Store): Migrator {
  return new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
}

/**
 * A migrated store of `kind` (a data directory or PostgreSQL schema of its own) for the tests of
 * the enclosing describe, closed after them. Call the returned function inside a test.
 * `migrate: false` leaves it empty, for tests that walk the migrations themselves.
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
