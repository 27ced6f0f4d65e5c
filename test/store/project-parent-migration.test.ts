import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases, type DatabaseKind } from '../helpers/app.js';
import { migratorOf as migrator, useStore } from '../helpers/store.js';

const BEFORE = '2026-11-27-0012-task-place-plan';
/** Up to this migration only: later ones add columns of their own (0022 a project's version). */
const AFTER = '2026-11-27-0016-project-parent-no-cascade';
const AT = '2026-01-01T00:00:00.000Z';

function project(id: string, parentId: string | null) {
  return {
    id,
    owner_id: 'usr_deep',
    tree_id: 'tre_deep',
    parent_id: parentId,
    name: id,
    description: '',
    color: '#2e7d32',
    position: 0,
    created_at: AT,
    updated_at: AT,
  };
}

describe.each(databases)('project parents stop cascading (migration 0016, %s)', (kind: DatabaseKind) => {
  const storeOf = useStore(kind, { migrate: false });

  it(
    'keeps every project, its seq and the counter, and lets a tree nested 1,001 levels before it be deleted',
    { timeout: 60_000 },
    async () => {
      const store = storeOf();
      expect((await migrator(store).migrateTo(BEFORE)).error).toBeUndefined();
      const db = store.db as any;
      await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
      values ('usr_deep', 'usr_deep', 'deep@example.test', 'x', 'Deep', 'en', 'UTC', 'grove', ${AT}, ${AT})`.execute(
        store.db,
      );
      await db
        .insertInto('trees')
        .values({
          id: 'tre_deep',
          owner_id: 'usr_deep',
          name: 'Deep',
          style: 'tidy-fan',
          project_count: 1001,
          task_count: 1,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
      const chain = Array.from({ length: 1001 }, (_, i) =>
        project(`prj_${String(i).padStart(4, '0')}`, i === 0 ? null : `prj_${String(i - 1).padStart(4, '0')}`),
      );
      for (let start = 0; start < chain.length; start += 200)
        await db
          .insertInto('projects')
          .values(chain.slice(start, start + 200))
          .execute();
      // The last one made is gone again: the next project must not take its seq.
      await db.insertInto('projects').values(project('prj_gone', null)).execute();
      await db.deleteFrom('projects').where('id', '=', 'prj_gone').execute();
      await db
        .insertInto('tasks')
        .values({
          id: 'tsk_deep',
          owner_id: 'usr_deep',
          tree_id: 'tre_deep',
          project_id: 'prj_1000',
          title: 'At the bottom',
          text: '',
          notes: '',
          status: 'todo',
          deadline: null,
          color: '#2e7d32',
          position: 0,
          completed_at: null,
          created_by: 'usr_deep',
          created_at: AT,
          updated_at: AT,
        })
        .execute();
      const before = await db.selectFrom('projects').selectAll().orderBy('seq').execute();

      expect((await migrator(store).migrateTo(AFTER)).error).toBeUndefined();
      expect(await db.selectFrom('projects').selectAll().orderBy('seq').execute()).toEqual(before);
      await db.insertInto('projects').values(project('prj_next', null)).execute();
      const next = await db.selectFrom('projects').select('seq').where('id', '=', 'prj_next').executeTakeFirstOrThrow();
      expect(Number(next.seq)).toBeGreaterThan(Number(before.at(-1).seq) + 1);
      // A parent removed without its children is still refused; the subtree goes in one statement.
      await expect(db.deleteFrom('projects').where('id', '=', 'prj_0999').execute()).rejects.toThrow();
      await db.deleteFrom('projects').where('id', 'in', ['prj_0999', 'prj_1000']).execute();
      expect(await db.selectFrom('tasks').select('id').where('tree_id', '=', 'tre_deep').execute()).toEqual([]);

      await db.deleteFrom('trees').where('id', '=', 'tre_deep').execute();
      expect(await db.selectFrom('projects').select('id').execute()).toEqual([]);

      // Down and up again: the cascade comes back, then goes.
      expect((await migrator(store).migrateTo(BEFORE)).error).toBeUndefined();
      await db
        .insertInto('trees')
        .values({
          id: 'tre_deep',
          owner_id: 'usr_deep',
          name: 'Deep',
          style: 'tidy-fan',
          project_count: 2,
          task_count: 0,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
      await db
        .insertInto('projects')
        .values([project('prj_a', null), project('prj_b', 'prj_a')])
        .execute();
      await db.deleteFrom('projects').where('id', '=', 'prj_a').execute();
      expect(await db.selectFrom('projects').select('id').execute()).toEqual([]);
      expect((await migrator(store).migrateTo(AFTER)).error).toBeUndefined();
      await db
        .insertInto('projects')
        .values([project('prj_a', null), project('prj_b', 'prj_a')])
        .execute();
      await expect(db.deleteFrom('projects').where('id', '=', 'prj_a').execute()).rejects.toThrow();
    },
  );
});
