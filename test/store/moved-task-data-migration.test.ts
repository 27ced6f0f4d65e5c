import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases, type DatabaseKind } from '../helpers/app.js';
import { migratorOf, useStore } from '../helpers/store.js';

const BEFORE = '2026-11-27-0012-task-place-plan';
const MIGRATION = '2026-11-27-0015-moved-task-data';
const AT = '2026-11-01T00:00:00.000Z';

describe.each(databases)('rows that earlier moves left behind (%s)', (kind: DatabaseKind) => {
  const opened = useStore(kind, { migrate: false });

  it('follow their task to its tree and owner, and attachments keep the key their content is stored under', async () => {
    const store = opened();
    expect((await migratorOf(store).migrateTo(BEFORE)).error).toBeUndefined();
    const db = store.db as any;
    for (const id of ['usr_alice', 'usr_bob']) {
      await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
        values (${id}, ${id}, ${`${id}@example.test`}, 'x', 'Someone', 'en', 'UTC', 'grove', ${AT}, ${AT})`.execute(db);
    }
    await db
      .insertInto('trees')
      .values([
        { id: 'tre_shared', owner_id: 'usr_alice', name: 'Shared', style: 'tidy-fan', created_at: AT, updated_at: AT },
        { id: 'tre_bobs', owner_id: 'usr_bob', name: 'Mine', style: 'tidy-fan', created_at: AT, updated_at: AT },
      ])
      .execute();
    const task = (id: string, owner: string, tree: string) => ({
      id,
      owner_id: owner,
      tree_id: tree,
      project_id: null,
      title: 'x',
      text: '',
      notes: '',
      status: 'todo',
      deadline: null,
      color: '#2e7d32',
      position: 1,
      completed_at: null,
      created_by: 'usr_alice',
      assignee_ids: '["usr_alice"]',
      created_at: AT,
      updated_at: AT,
    });
    // A task moved to Bob's tree before moves carried anything, and one that stayed.
    await db
      .insertInto('tasks')
      .values([task('tsk_moved', 'usr_bob', 'tre_bobs'), task('tsk_stayed', 'usr_alice', 'tre_shared')])
      .execute();
    const attachment = (id: string, taskId: string) => ({
      id,
      owner_id: 'usr_alice',
      task_id: taskId,
      filename: 'a.txt',
      content_type: 'text/plain',
      size: 5,
      sha256: 'x',
      metadata_removed: '[]',
      created_at: AT,
      updated_at: AT,
    });
    await db
      .insertInto('attachments')
      .values([attachment('att_moved', 'tsk_moved'), attachment('att_stayed', 'tsk_stayed')])
      .execute();
    await db
      .insertInto('speech_jobs')
      .values({
        id: 'spj_moved',
        owner_id: 'usr_alice',
        task_id: 'tsk_moved',
        attachment_id: 'att_moved',
        status: 'succeeded',
        transcript: 'x',
        error: null,
        run_at: AT,
        created_at: AT,
        updated_at: AT,
        finished_at: AT,
      })
      .execute();
    await db
      .insertInto('comments')
      .values([
        {
          id: 'cmt_moved',
          owner_id: 'usr_alice',
          tree_id: 'tre_shared',
          task_id: 'tsk_moved',
          author_id: 'usr_alice',
          body: 'left behind',
          created_at: AT,
          updated_at: AT,
        },
        {
          id: 'cmt_stayed',
          owner_id: 'usr_alice',
          tree_id: 'tre_shared',
          task_id: 'tsk_stayed',
          author_id: 'usr_alice',
          body: 'at home',
          created_at: AT,
          updated_at: AT,
        },
      ])
      .execute();
    await db
      .insertInto('task_assignees')
      .values({
        task_id: 'tsk_moved',
        user_id: 'usr_alice',
        owner_id: 'usr_alice',
        tree_id: 'tre_shared',
        created_at: AT,
      })
      .execute();

    expect((await migratorOf(store).migrateTo(MIGRATION)).error).toBeUndefined();
    expect(
      await store.db.selectFrom('attachments').select(['id', 'owner_id', 'blob_key']).orderBy('id').execute(),
    ).toEqual([
      { id: 'att_moved', owner_id: 'usr_bob', blob_key: 'usr_alice/att_moved' },
      { id: 'att_stayed', owner_id: 'usr_alice', blob_key: 'usr_alice/att_stayed' },
    ]);
    expect(await store.db.selectFrom('comments').select(['id', 'owner_id', 'tree_id']).orderBy('id').execute()).toEqual(
      [
        { id: 'cmt_moved', owner_id: 'usr_bob', tree_id: 'tre_bobs' },
        { id: 'cmt_stayed', owner_id: 'usr_alice', tree_id: 'tre_shared' },
      ],
    );
    expect(await store.db.selectFrom('speech_jobs').select('owner_id').execute()).toEqual([{ owner_id: 'usr_bob' }]);
    expect(await store.db.selectFrom('task_assignees').select(['owner_id', 'tree_id']).execute()).toEqual([
      { owner_id: 'usr_bob', tree_id: 'tre_bobs' },
    ]);

    expect((await migratorOf(store).migrateTo(BEFORE)).error).toBeUndefined();
    expect(Object.keys((await db.selectFrom('attachments').selectAll().executeTakeFirst()) as object)).not.toContain(
      'blob_key',
    );
  });
});
