import { sql, type Kysely } from 'kysely';

/**
 * Data that hangs off a task follows it to another tree and owner (CONTRACT §19), and an
 * attachment's content is never copied for that: each attachment keeps the key its content was
 * stored under (`<owner at upload>/<id>`), whoever owns it now.
 * Rows that earlier moves left behind (comments still read in the old tree, attachments and
 * speech jobs still charged to the old owner, assignments of the old tree) take their task's
 * tree and owner here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('attachments')
    .addColumn('blob_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update attachments set blob_key = owner_id || '/' || id`.execute(db);
  const ownerOfTask = (table: string) =>
    sql`(select t.owner_id from tasks t where t.id = ${sql.ref(`${table}.task_id`)})`;
  const treeOfTask = (table: string) =>
    sql`(select t.tree_id from tasks t where t.id = ${sql.ref(`${table}.task_id`)})`;
  for (const table of ['attachments', 'speech_jobs']) {
    await sql`update ${sql.table(table)} set owner_id = ${ownerOfTask(table)} where owner_id <> ${ownerOfTask(table)}`.execute(
      db,
    );
  }
  for (const table of ['comments', 'task_assignees']) {
    await sql`update ${sql.table(table)} set owner_id = ${ownerOfTask(table)}, tree_id = ${treeOfTask(table)}
      where owner_id <> ${ownerOfTask(table)} or tree_id <> ${treeOfTask(table)}`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('attachments').dropColumn('blob_key').execute();
}
