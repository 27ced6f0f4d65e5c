import { beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { databases } from '../helpers/app.js';
import { useStore } from '../helpers/store.js';
import { GroupCommit } from '../../src/store/group-commit.js';
import type { Db, Trx } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';

/** A scratch table of the test's own store: one row per write that committed. */
const insertProbe = (db: Db | Trx, id: string) =>
  sql<{ id: string }>`insert into gc_probe (id) values (${id}) returning id`.execute(db).then((r) => r.rows[0]!.id);
const probes = async (db: Db) =>
  (await sql<{ id: string }>`select id from gc_probe order by id`.execute(db)).rows.map((r) => r.id);

/**
 * Writes that arrive together share one transaction; each runs in a savepoint of its own, so a
 * write that fails is undone alone and the others of its batch commit.
 */
describe.each(databases)('group commit (%s)', (kind) => {
  const storeOf = useStore(kind);
  beforeAll(async () => {
    await sql`create table gc_probe (id text primary key)`.execute(storeOf().db);
    await insertProbe(storeOf().db, 'taken');
  });

  it('lets a write that fails in a shared batch fail alone, and commits the batch’s other writes', async () => {
    const commits = new GroupCommit(storeOf().db);
    const writing = (id: string, fails = false) =>
      commits.run('tree', async (trx) => {
        await insertProbe(trx, id);
        if (fails) throw new Error(`work ${id} refused`);
        return id;
      });
    // Started in one tick, so they share a batch; "taken" breaks the primary key.
    const outcomes = await Promise.allSettled([writing('a1'), writing('taken'), writing('a2', true), writing('a3')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/unique|duplicate/i);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('work a2 refused');
    expect(await probes(storeOf().db)).toEqual(['a1', 'a3', 'taken']);
  });

  it('rolls a lone write back whole when it fails', async () => {
    const commits = new GroupCommit(storeOf().db);
    await expect(
      commits.run('tree', async (trx) => {
        await insertProbe(trx, 'b1');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await probes(storeOf().db)).filter((id) => id.startsWith('b'))).toEqual([]);
  });

  it.skipIf(kind !== 'postgres')('takes a savepoint per write of a shared batch, none for a lone one', async () => {
    const store = storeOf();
    const statements: string[] = [];
    // The same pool, seen through a Kysely that logs each statement it runs.
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: store.pool! }),
      log: (event) => void statements.push(event.query.sql),
    });
    const commits = new GroupCommit(db);
    await Promise.all(['c1', 'c2', 'c3'].map((id) => commits.run('tree', (trx) => insertProbe(trx, id))));
    expect(statements.filter((text) => /^savepoint/i.test(text))).toHaveLength(3);
    statements.length = 0;
    await commits.run('tree', (trx) => insertProbe(trx, 'c4'));
    expect(statements.filter((text) => /^savepoint/i.test(text))).toHaveLength(0);
    expect((await probes(store.db)).filter((id) => id.startsWith('c'))).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});
