import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { openStore, type Store } from '../../src/store/db.js';

// The bound is PostgreSQL's own setting; SQLite has no statement timeout (nor a pool to exhaust).
describe.skipIf(!process.env.TEST_DATABASE_URL)('statement timeout (postgres)', () => {
  let env: TestEnv;
  let store: Store;
  beforeAll(async () => {
    env = makeTestEnv('postgres', { DATABASE_STATEMENT_TIMEOUT_SECONDS: '0.5' });
    store = await openStore(env.config);
  });
  afterAll(async () => {
    await store.close();
    await env.dispose();
  });

  it(
    'cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_SECONDS, and the pool keeps serving',
    { timeout: 10_000 },
    async () => {
      const started = Date.now();
      await expect(sql`select pg_sleep(5)`.execute(store.db)).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(3_000);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      expect(rows).toEqual([{ one: 1 }]);
    },
  );
});
