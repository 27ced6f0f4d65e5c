import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';

/** Issue #31: createTask is the only copy of a create's rules; the PL/pgSQL twin is gone. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('migration 0017 drops take_task_place (postgres)', () => {
  let env: TestEnv;
  let store: Store;
  beforeAll(async () => {
    env = makeTestEnv('postgres');
    store = await openStore(env.config);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store.close();
    await env.dispose();
  });

  it('leaves no function of that name in the store’s schema', async () => {
    const { rows } = await sql`select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proname = 'take_task_place' and n.nspname = current_schema()`.execute(store.db);
    expect(rows).toEqual([]);
  });
});
