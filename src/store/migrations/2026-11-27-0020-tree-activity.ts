import type { Kysely } from 'kysely';

/**
 * A tree's latest activity (the trees list's `last_activity_at`) reads the newest `updated_at` of
 * its tasks and of its projects: with these indexes each is one index probe, not a walk over the
 * tree's 10,000 tasks.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tasks_tree_updated').on('tasks').columns(['tree_id', 'updated_at']).execute();
  await db.schema.createIndex('projects_tree_updated').on('projects').columns(['tree_id', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('projects_tree_updated').execute();
  await db.schema.dropIndex('tasks_tree_updated').execute();
}
