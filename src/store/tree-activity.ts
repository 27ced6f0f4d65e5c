import type { Db } from './types.js';

/**
 * When each of these trees last saw activity: the newest of the tree row's own `updated_at`, its
 * tasks' and projects' `updated_at` (one probe each of tasks_tree_updated and
 * projects_tree_updated), and its newest history entry (one probe of history_tree_seq), which
 * also counts what left no row behind, such as a deleted task. One statement for a page of trees.
 * Timestamps are ISO 8601 UTC text throughout, so the newest is the greatest string.
 */
export async function treesLastActivity(db: Db, treeIds: readonly string[]): Promise<Map<string, string>> {
  const activity = new Map<string, string>();
  if (treeIds.length === 0) return activity;
  const rows = await db
    .selectFrom('trees as t')
    .select((eb) => [
      't.id',
      't.updated_at',
      eb
        .selectFrom('tasks')
        .select((s) => s.fn.max('tasks.updated_at').as('at'))
        .whereRef('tasks.tree_id', '=', 't.id')
        .as('tasks_at'),
      eb
        .selectFrom('projects')
        .select((s) => s.fn.max('projects.updated_at').as('at'))
        .whereRef('projects.tree_id', '=', 't.id')
        .as('projects_at'),
      eb
        .selectFrom('history')
        .select('history.at')
        .whereRef('history.tree_id', '=', 't.id')
        .orderBy('history.seq', 'desc')
        .limit(1)
        .as('history_at'),
    ])
    .where('t.id', 'in', treeIds)
    .execute();
  for (const row of rows) {
    const times = [row.updated_at, row.tasks_at, row.projects_at, row.history_at].filter(
      (at): at is string => typeof at === 'string',
    );
    activity.set(
      row.id,
      times.reduce((newest, at) => (at > newest ? at : newest)),
    );
  }
  return activity;
}
