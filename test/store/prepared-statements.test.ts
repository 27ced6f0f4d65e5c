import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { compiledOnce } from '../../src/store/compiled.js';

const userEmail = compiledOnce((db, id: string) => db.selectFrom('users').select(['id', 'email']).where('id', '=', id));

async function addUser(store: Store | { db: Store['db'] }, id: string, email: string): Promise<void> {
  await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
    values (${id}, ${id}, ${email}, 'x', 'Someone', 'en', 'UTC', 'seed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
    store.db,
  );
}

/**
 * Compiled statements are prepared by name on PostgreSQL, once per connection. Each store names
 * its own (src/store/pg-named.ts), and each pool's connections read their own schema.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('compiled statements prepared by name (postgres)', () => {
  const envs: TestEnv[] = [];
  const stores: Store[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const env = makeTestEnv('postgres');
      const store = await openStore(env.config);
      await migrateToLatest(store);
      envs.push(env);
      stores.push(store);
    }
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const env of envs) await env.dispose();
  });

  it('are prepared once and then reused, and read the schema of their own pool', async () => {
    const [a, b] = stores as [Store, Store];
    await addUser(a, 'usr_same', 'in-a@example.test');
    await addUser(b, 'usr_same', 'in-b@example.test');
    for (let i = 0; i < 3; i++) {
      expect(await userEmail(a.db, 'usr_same')).toEqual([{ id: 'usr_same', email: 'in-a@example.test' }]);
      expect(await userEmail(b.db, 'usr_same')).toEqual([{ id: 'usr_same', email: 'in-b@example.test' }]);
    }
    // Sequential queries reuse the pool's one idle connection, whose prepared statements these are.
    const { rows } = await a.pool!.query<{ statement: string }>('select statement from pg_prepared_statements');
    expect(rows.filter((r) => r.statement.includes('"users"') && r.statement.includes('"email"'))).toHaveLength(1);
  });

  it("see a write at once, and inside a transaction its own uncommitted rows and nobody else's", async () => {
    const store = stores[0]!;
    expect(await userEmail(store.db, 'usr_later')).toEqual([]);
    await store.db.transaction().execute(async (trx) => {
      await addUser({ db: trx as unknown as Store['db'] }, 'usr_later', 'later@example.test');
      expect(await userEmail(trx, 'usr_later')).toEqual([{ id: 'usr_later', email: 'later@example.test' }]);
      expect(await userEmail(store.db, 'usr_later')).toEqual([]);
    });
    expect(await userEmail(store.db, 'usr_later')).toEqual([{ id: 'usr_later', email: 'later@example.test' }]);
    await sql`update users set email = 'changed@example.test' where id = 'usr_later'`.execute(store.db);
    expect(await userEmail(store.db, 'usr_later')).toEqual([{ id: 'usr_later', email: 'changed@example.test' }]);
  });
});

/** Another instance migrates while this one holds prepared statements of the changed table. */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'compiled statements after another instance migrates (postgres)',
  () => {
    let env: TestEnv;
    let store: Store;
    let migrator: Store;
    const everything = compiledOnce((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));
    beforeAll(async () => {
      env = makeTestEnv('postgres');
      store = await openStore(env.config);
      await migrateToLatest(store);
      migrator = await openStore(env.config);
    });
    afterAll(async () => {
      await store.close();
      await migrator.close();
      await env.dispose();
    });

    it('prepare themselves anew when a column is added under a select *', async () => {
      await addUser(store, 'usr_before', 'before@example.test');
      expect(await everything(store.db, 'usr_before')).toHaveLength(1);
      await sql`alter table users add column nickname text`.execute(migrator.db);
      const [row] = await everything(store.db, 'usr_before');
      expect(row).toMatchObject({ id: 'usr_before', nickname: null });
      // Inside a transaction the refusal is met once by the connection that still holds the old
      // plan; from then on that text is prepared under a new name everywhere.
      await sql`alter table users add column motto text`.execute(migrator.db);
      const attempts: string[] = [];
      for (let i = 0; i < 2; i++) {
        await store.db
          .transaction()
          .execute(async (trx) => {
            attempts.push((await everything(trx, 'usr_before')).length === 1 ? 'read' : 'empty');
          })
          .catch((err: { code?: string }) => attempts.push(err.code ?? 'error'));
      }
      expect(attempts.at(-1)).toBe('read');
      expect(await everything(store.db, 'usr_before')).toEqual([expect.objectContaining({ motto: null })]);
    });
  },
);
