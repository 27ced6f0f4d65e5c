import { afterAll, beforeAll } from 'vitest';
import { makeTestEnv, type DatabaseKind, type TestEnv } from './app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';

/**
 * A migrated store of `kind` (a data directory or PostgreSQL schema of its own) for the tests of
 * the enclosing describe, closed after them. Call the returned function inside a test.
 */
export function useStore(kind: DatabaseKind): () => Store {
  let env: TestEnv;
  let store: Store;
  beforeAll(async () => {
    env = makeTestEnv(kind);
    store = await openStore(env.config);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store.close();
    await env.dispose();
  });
  return () => store;
}
