import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases, type DatabaseKind } from '../helpers/app.js';
import { migratorOf as migrator, useStore } from '../helpers/store.js';

const BEFORE = '2026-11-27-0016-project-parent-no-cascade';
const AT = '2026-01-01T00:00:00.000Z';

const comment = (id: string, author: string | null) => ({
  id,
  owner_id: 'usr_owner',
  tree_id: 'tre_1',
  task_id: 'tsk_1',
  author_id: author,
  body: id,
  created_at: AT,
  updated_at: AT,
});
const message = (id: string, author: string | null) => ({
  id,
  owner_id: 'usr_owner',
  tree_id: 'tre_1',
  author_id: author,
  body: id,
  created_at: AT,
  updated_at: AT,
});

describe.each(databases)('comments and messages outlive their author (migration 0018, %s)', (kind: DatabaseKind) => {
  const storeOf = useStore(kind, { migrate: false });

  it('keeps every row, its seq and the counter, and takes a null author; down gives them the empty id', async () => {
    const store = storeOf();
    expect((await migrator(store).migrateTo(BEFORE)).error).toBeUndefined();
    const db = store.db as any;
    await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
      values ('usr_owner', 'usr_owner', 'owner@example.test', 'x', 'Owner', 'en', 'UTC', 'grove', ${AT}, ${AT})`.execute(
      store.db,
    );
    await db
      .insertInto('trees')
      .values({ id: 'tre_1', owner_id: 'usr_owner', name: 'T', style: 'tidy-fan', created_at: AT, updated_at: AT })
      .execute();
    await db
      .insertInto('tasks')
      .values({
        id: 'tsk_1',
        owner_id: 'usr_owner',
        tree_id: 'tre_1',
        project_id: null,
        title: 'T',
        text: '',
        notes: '',
        status: 'todo',
        deadline: null,
        color: '#2e7d32',
        position: 0,
        completed_at: null,
        created_by: 'usr_owner',
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    await expect(db.insertInto('comments').values(comment('cmt_null', null)).execute()).rejects.toThrow();
    await db
      .insertInto('comments')
      .values([comment('cmt_1', 'usr_a'), comment('cmt_gone', 'usr_a')])
      .execute();
    await db.deleteFrom('comments').where('id', '=', 'cmt_gone').execute();
    await db
      .insertInto('messages')
      .values([message('msg_1', 'usr_a'), message('msg_gone', 'usr_a')])
      .execute();
    await db.deleteFrom('messages').where('id', '=', 'msg_gone').execute();
    const before = {
      comments: await db.selectFrom('comments').selectAll().orderBy('seq').execute(),
      messages: await db.selectFrom('messages').selectAll().orderBy('seq').execute(),
    };

    expect((await migrator(store).migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('comments').selectAll().orderBy('seq').execute()).toEqual(before.comments);
    expect(await db.selectFrom('messages').selectAll().orderBy('seq').execute()).toEqual(before.messages);
    await db.insertInto('comments').values(comment('cmt_2', null)).execute();
    await db.insertInto('messages').values(message('msg_2', null)).execute();
    for (const [table, id, old] of [
      ['comments', 'cmt_2', before.comments],
      ['messages', 'msg_2', before.messages],
    ] as const) {
      const row = await db
        .selectFrom(table)
        .select(['seq', 'author_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.author_id).toBeNull();
      // The deleted row's seq is not taken again: the counter survived the rebuild.
      expect(Number(row.seq)).toBeGreaterThan(Number(old.at(-1).seq) + 1);
    }
    // The task's comments still go with it (the foreign keys were rebuilt too).
    await db.deleteFrom('trees').where('id', '=', 'tre_1').execute();
    expect(await db.selectFrom('comments').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('messages').select('id').execute()).toEqual([]);

    await db
      .insertInto('trees')
      .values({ id: 'tre_1', owner_id: 'usr_owner', name: 'T', style: 'tidy-fan', created_at: AT, updated_at: AT })
      .execute();
    await db.insertInto('messages').values(message('msg_3', null)).execute();
    expect((await migrator(store).migrateTo(BEFORE)).error).toBeUndefined();
    expect(await db.selectFrom('messages').select('author_id').execute()).toEqual([{ author_id: '' }]);
    await expect(db.insertInto('messages').values(message('msg_4', null)).execute()).rejects.toThrow();
    expect((await migrator(store).migrateToLatest()).error).toBeUndefined();
    await db.insertInto('messages').values(message('msg_4', null)).execute();
  });
});
