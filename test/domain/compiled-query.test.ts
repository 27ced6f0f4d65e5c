import { beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { useStore } from '../helpers/store.js';
import { inTransaction, type Store } from '../../src/store/db.js';
import { compiledOnce } from '../../src/store/compiled.js';

const userById = compiledOnce((db, id: string) => db.selectFrom('users').select(['id', 'name']).where('id', '=', id));
const wholeUser = compiledOnce((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));
const userWithSelf = compiledOnce((db, id: string) =>
  db
    .selectFrom('users as a')
    .innerJoin('users as b', 'b.id', 'a.owner_id')
    .select(['a.id', 'a.name', 'b.name as owner_name', 'b.id'])
    .where('a.id', '=', id),
);

function userRow(id: string, name: string) {
  const now = new Date().toISOString();
  return {
    id,
    owner_id: id,
    email: `${id}@example.test`,
    password_hash: 'x',
    name,
    language: 'en',
    timezone: 'UTC',
    plan: 'seed',
    plan_expires_at: null,
    created_at: now,
    updated_at: now,
  };
}

describe.each(databases)('compiled point queries (%s)', (kind) => {
  const storeOf = useStore(kind);
  const otherStoreOf = useStore(kind);
  let store: Store;
  beforeAll(() => {
    store = storeOf();
  });

  // Each store keeps its compiled statements (and SQLite's handle) in its own state, none in the module.
  it('run on the store they are given when two are open at once', async () => {
    const other = otherStoreOf();
    await store.db.insertInto('users').values(userRow('usr_twin', 'Here')).execute();
    await other.db.insertInto('users').values(userRow('usr_twin', 'There')).execute();
    expect(await userById(store.db, 'usr_twin')).toEqual([{ id: 'usr_twin', name: 'Here' }]);
    expect(await userById(other.db, 'usr_twin')).toEqual([{ id: 'usr_twin', name: 'There' }]);
    const insideOther = await inTransaction(other.db, (trx) => userById(trx, 'usr_twin'));
    expect(insideOther).toEqual([{ id: 'usr_twin', name: 'There' }]);
    await store.db.deleteFrom('users').where('id', '=', 'usr_twin').execute();
  });

  it('run with new arguments each time', async () => {
    await store.db
      .insertInto('users')
      .values([userRow('usr_a', 'A'), userRow('usr_b', 'B')])
      .execute();
    expect(await userById(store.db, 'usr_a')).toEqual([{ id: 'usr_a', name: 'A' }]);
    expect(await userById(store.db, 'usr_b')).toEqual([{ id: 'usr_b', name: 'B' }]);
    expect(await userById(store.db, 'usr_none')).toEqual([]);
  });

  it('never read what an open transaction has not committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const writer = inTransaction(store.db, async (trx) => {
      await trx.insertInto('users').values(userRow('usr_pending', 'Pending')).execute();
      await trx.updateTable('users').set({ name: 'A, uncommitted' }).where('id', '=', 'usr_a').execute();
      inserted();
      await held;
      throw new Error('roll back');
    }).catch((err: Error) => err.message);
    await didInsert;
    // Issued while the transaction is open: it may wait for it, but must not see inside it.
    const reads = Promise.all([userById(store.db, 'usr_pending'), userById(store.db, 'usr_a')]);
    release();
    expect(await writer).toBe('roll back');
    expect(await reads).toEqual([[], [{ id: 'usr_a', name: 'A' }]]);
  });

  it('read inside a transaction what it wrote', async () => {
    const seen = await inTransaction(store.db, async (trx) => {
      await trx.insertInto('users').values(userRow('usr_c', 'C')).execute();
      return userById(trx, 'usr_c');
    });
    expect(seen).toEqual([{ id: 'usr_c', name: 'C' }]);
  });

  it('give whole rows as Kysely does, whatever else runs the same SQL', async () => {
    await store.db.insertInto('users').values(userRow('usr_w', 'W')).execute();
    const viaKysely = await store.db.selectFrom('users').selectAll().where('id', '=', 'usr_w').execute();
    const compiled = await wholeUser(store.db, 'usr_w');
    expect(compiled).toEqual(viaKysely);
    expect(Object.keys(compiled[0]!)).toEqual(Object.keys(viaKysely[0]!));
    // Kysely, handed the same SQL text afterwards, still gets objects.
    expect(await store.db.selectFrom('users').selectAll().where('id', '=', 'usr_w').execute()).toEqual(viaKysely);
    // Two columns of one name: the later one wins, as in a row object.
    expect(await userWithSelf(store.db, 'usr_w')).toEqual([{ id: 'usr_w', name: 'W', owner_name: 'W' }]);
  });

  // SQLite only: there the statement is ours and re-prepared by SQLite; PostgreSQL rows come from pg.
  if (kind === 'sqlite')
    it('follow a table that gained a column while the connection was open', async () => {
      await store.db.insertInto('users').values(userRow('usr_s', 'S')).execute();
      expect(await wholeUser(store.db, 'usr_s')).toHaveLength(1);
      await store.db.schema
        .alterTable('users')
        .addColumn('nickname', 'text', (c) => c.defaultTo('Ess'))
        .execute();
      const [row] = await wholeUser(store.db, 'usr_s');
      expect(row).toMatchObject({ id: 'usr_s', name: 'S', nickname: 'Ess' });
      await store.db.schema.alterTable('users').dropColumn('nickname').execute();
      expect(await wholeUser(store.db, 'usr_s')).toEqual(
        await store.db.selectFrom('users').selectAll().where('id', '=', 'usr_s').execute(),
      );
    });
});
