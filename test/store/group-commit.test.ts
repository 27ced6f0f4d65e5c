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
 * An attempt is one statement that does a write or declines having changed nothing (a create in
 * one's own tree on PostgreSQL). In a shared batch it runs without a savepoint of its own; these
 * tests show that a batch still treats each write alone when one of them fails or declines.
 */
describe.each(databases)('group commit of attempts (%s)', (kind) => {
  const storeOf = useStore(kind);
  beforeAll(async () => {
    await sql`create table gc_probe (id text primary key)`.execute(storeOf().db);
    await insertProbe(storeOf().db, 'taken');
  });

  it('lets an attempt that fails in a shared batch fail alone, and commits the batch’s other writes', async () => {
    const commits = new GroupCommit(storeOf().db, kind);
    const attempt = (id: string) =>
      commits.run(
        'tree',
        async () => Promise.reject(new Error('the attempt decides')),
        (db) => insertProbe(db, id),
      );
    // Started in one tick, so they share a batch; "taken" breaks the primary key and aborts it.
    const outcomes = await Promise.allSettled([attempt('a1'), attempt('a2'), attempt('taken'), attempt('a3')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.slice(0, 2).map((o) => (o as PromiseFulfilledResult<string>).value)).toEqual(['a1', 'a2']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/unique|duplicate/i);
    expect(await probes(storeOf().db)).toEqual(['a1', 'a2', 'a3', 'taken']);
  });

  it('runs the work of an attempt that declines in the same batch, in a savepoint, where its failure is undone alone', async () => {
    const commits = new GroupCommit(storeOf().db, kind);
    const declined = (id: string, fails: boolean) =>
      commits.run(
        'tree',
        async (trx) => {
          await insertProbe(trx, id);
          if (fails) throw new Error(`work ${id} refused`);
          return id;
        },
        async () => undefined,
      );
    const done = (id: string) =>
      commits.run(
        'tree',
        async () => Promise.reject(new Error('unused')),
        (db) => insertProbe(db, id),
      );
    const outcomes = await Promise.allSettled([done('b1'), declined('b2', false), declined('b3', true), done('b4')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('work b3 refused');
    expect((await probes(storeOf().db)).filter((id) => id.startsWith('b'))).toEqual(['b1', 'b2', 'b4']);
  });

  it.skipIf(kind !== 'postgres')('takes no savepoint for an attempt that does its write, one for a work', async () => {
    const store = storeOf();
    const statements: string[] = [];
    // The same pool, seen through a Kysely that logs each statement it runs.
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: store.pool! }),
      log: (event) => void statements.push(event.query.sql),
    });
    const commits = new GroupCommit(db, 'postgres');
    await Promise.all([
      commits.run(
        'tree',
        async () => Promise.reject(new Error('unused')),
        (trx) => insertProbe(trx, 'c1'),
      ),
      commits.run(
        'tree',
        async () => Promise.reject(new Error('unused')),
        (trx) => insertProbe(trx, 'c2'),
      ),
      commits.run(
        'tree',
        (trx) => insertProbe(trx, 'c3'),
        async () => undefined,
      ),
    ]);
    expect(statements.filter((text) => /^savepoint/i.test(text))).toHaveLength(1);
    expect((await probes(store.db)).filter((id) => id.startsWith('c'))).toEqual(['c1', 'c2', 'c3']);
  });
});
