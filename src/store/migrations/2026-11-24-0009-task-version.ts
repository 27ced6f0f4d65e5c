import type { Kysely } from 'kysely';

/**
 * A task's version, raised by every write to the row: `GET /tasks/{id}` derives its ETag from it
 * (with the reader), so a conditional read is answered 304 without building and hashing the body.
 * `updated_at` cannot serve: two writes within one millisecond share it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('version').execute();
}
