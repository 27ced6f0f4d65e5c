import type { Kysely } from 'kysely';

/**
 * Trees and projects gain the `version` tasks have had since migration 0009 (CONTRACT §16.2): 1
 * at creation, raised by one by each change of the record's own fields. Conditional writes
 * (`If-Match`) compare it, and a project's ETag is made from it. Existing rows start at 1.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['trees', 'projects']) {
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['projects', 'trees']) await db.schema.alterTable(table).dropColumn('version').execute();
}
