import { afterAll, beforeAll } from 'vitest';
import { Migrator } from 'kysely';
import { makeTestEnv, type DatabaseKind, type TestEnv } from './app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';

/**
 * A migrated store of `kind` (a data directory or PostgreSQL schema of its own) for the tests of
 * the enclosing describe, closed after them. Call the returned function inside a test. Tests of
 * a migration ask for an empty one (`migrate: false`) and step through with `migratorOf`.
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

/** Steps a store through the migrations one name at a time (`migrateTo`), up or down. */
export function migratorOf(store: Store): Migrator {
  return new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
}
