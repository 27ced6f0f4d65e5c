import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * The daily views (CONTRACT §18). `deadline_after` / `deadline_before` read a range of deadlines
 * among the trees a person sees: their own (owner_id) and those shared with them (tree_id). The
 * trees list counts each tree's open and done tasks: (tree_id, status) counts them from the index
 * alone, without reading a task row. The deadline indexes hold only tasks that have a deadline
 * (every deadline filter says `deadline is not null`), so creating a task without one, the common
 * case, maintains neither.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const withDeadline = sql<SqlBool>`deadline is not null`;
  await db.schema
    .createIndex('tasks_owner_deadline')
    .on('tasks')
    .columns(['owner_id', 'deadline'])
    .where(withDeadline)
    .execute();
  await db.schema
    .createIndex('tasks_tree_deadline')
    .on('tasks')
    .columns(['tree_id', 'deadline'])
    .where(withDeadline)
    .execute();
  await db.schema.createIndex('tasks_tree_status').on('tasks').columns(['tree_id', 'status']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tasks_tree_status').execute();
  await db.schema.dropIndex('tasks_tree_deadline').execute();
  await db.schema.dropIndex('tasks_owner_deadline').execute();
}
