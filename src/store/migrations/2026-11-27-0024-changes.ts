import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Changes and undo (CONTRACT §16.3). Every history entry names the change it belongs to (`chg_`:
 * one request, tool call, CLI command, import, batch or revert), the credential and client that
 * made it, and the change a revert undid (`reverts`). `restore` is the entry's own undo data that
 * its `changes` may not show (a cross-tree move's place in the tree it left, a completion time):
 * JSON `{field: {from, to}}`, never answered. Entries written before this migration each become a
 * change of their own (their id with the change prefix).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['change_id', 'credential_id', 'client', 'reverts', 'restore']) {
    await db.schema.alterTable('history').addColumn(column, 'text').execute();
  }
  await sql`update history set change_id = 'chg_' || substr(id, 5)`.execute(db);
  // A revert finds its change's entries, and whether a revert of it exists.
  await db.schema.createIndex('history_change').on('history').columns(['change_id']).execute();
  await db.schema
    .createIndex('history_reverts')
    .on('history')
    .columns(['reverts'])
    .where(sql<SqlBool>`reverts is not null`)
    .execute();
  // A tree's entries of one credential are read through history_tree_seq (newest first, the
  // filter) or history_owner_at (a tree's revert since a moment): no index of their own, which
  // every token's write would pay for.
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['history_reverts', 'history_change']) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of ['restore', 'reverts', 'client', 'credential_id', 'change_id']) {
    await db.schema.alterTable('history').dropColumn(column).execute();
  }
}
