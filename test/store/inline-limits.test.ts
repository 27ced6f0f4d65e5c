import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases } from '../helpers/app.js';
import { useStore } from '../helpers/store.js';
import { compiledOnce } from '../../src/store/compiled.js';

const firstUsers = compiledOnce((db, take: number) => db.selectFrom('users').select('id').orderBy('id').limit(take));

describe.each(databases)('limits (%s)', (kind) => {
  const storeOf = useStore(kind);
  beforeAll(async () => {
    for (const n of [1, 2, 3, 4]) {
      await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
        values (${`usr_${n}`}, ${`usr_${n}`}, ${`u${n}@example.test`}, 'x', 'Someone', 'en', 'UTC', 'seed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
        storeOf().db,
      );
    }
  });

  it('are written into the text on SQLite, which plans a bound limit again at every run, and bound on PostgreSQL', () => {
    const query = storeOf()
      .db.selectFrom('users')
      .select('id')
      .where('email', '=', 'u1@example.test')
      .limit(1)
      .compile();
    if (kind === 'sqlite') {
      expect(query.sql).toMatch(/ limit 1$/);
      expect(query.parameters).toEqual(['u1@example.test']);
    } else {
      expect(query.sql).toMatch(/ limit \$2$/);
      expect(query.parameters).toEqual(['u1@example.test', 1]);
    }
  });

  it('answer as many rows as each query asks, whatever the others asked', async () => {
    const store = storeOf();
    for (const take of [1, 3, 2, 3, 1]) {
      const rows = await store.db.selectFrom('users').select('id').orderBy('id').limit(take).execute();
      expect(rows.map((r) => r.id)).toEqual(['usr_1', 'usr_2', 'usr_3'].slice(0, take));
      // A statement compiled once binds its limit, as any of its arguments.
      expect((await firstUsers(store.db, take)).map((r) => r.id)).toEqual(['usr_1', 'usr_2', 'usr_3'].slice(0, take));
    }
  });

  it('reach a subquery too, which Kysely hands to plugins as it embeds it', async () => {
    const store = storeOf();
    const inner = store.db.selectFrom('users').select('id').orderBy('id').limit(2);
    const query = store.db.selectFrom(inner.as('few')).select((eb) => eb.fn.countAll<number>().as('n'));
    expect(query.compile().parameters).toEqual(kind === 'sqlite' ? [] : [2]);
    expect(Number((await query.executeTakeFirstOrThrow()).n)).toBe(2);
  });
});
