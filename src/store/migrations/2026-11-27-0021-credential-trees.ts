import type { Kysely } from 'kysely';

/**
 * Tree-scoped credentials (CONTRACT §16.1): a personal token or an OAuth grant may be limited to
 * chosen trees. `tree_ids` holds their ids, space-separated, in the order chosen; null (every
 * credential made before this migration) means every tree the user can see.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_tokens').addColumn('tree_ids', 'text').execute();
  await db.schema.alterTable('oauth_grants').addColumn('tree_ids', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_grants').dropColumn('tree_ids').execute();
  await db.schema.alterTable('personal_tokens').dropColumn('tree_ids').execute();
}
