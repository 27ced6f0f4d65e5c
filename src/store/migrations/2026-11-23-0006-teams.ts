import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Teams (CONTRACT §10): tree members and invitations, task assignees, comments on tasks and the
 * tree's messages. `owner_id` is the tree owner on every row: the tenant key, as elsewhere.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const seqType = pg ? 'bigint' : 'integer';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seq = (c: any) => (pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('members')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    // Null until the invited email has an account; bound at registration.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    // pending | active | revoked; "expired" is read from expires_at, never stored.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One row per person and tree: a re-invitation revives the revoked row.
  await db.schema.createIndex('members_tree_email').on('members').columns(['tree_id', 'email']).unique().execute();
  await db.schema.createIndex('members_user_status').on('members').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('members_email_unbound').on('members').column('email').execute();

  await db.schema
    .createTable('task_assignees')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_assignees_pk', ['task_id', 'user_id'])
    .execute();
  // The task's assignees, kept with the row in the assignment's transaction, so a task read needs no second query.
  await db.schema
    .alterTable('tasks')
    .addColumn('assignee_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('task_assignees_user').on('task_assignees').columns(['user_id', 'tree_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_task_seq').on('comments').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('comments_tree').on('comments').column('tree_id').execute();

  await db.schema
    .createTable('messages')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_tree_seq').on('messages').columns(['tree_id', 'seq']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['messages', 'comments', 'task_assignees', 'members']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('tasks').dropColumn('assignee_ids').execute();
}
