import type { Db } from './types.js';

export interface TaskCounts {
  /** Tasks still to do: `todo` and `open` (not done, deferred or archived). */
  open: number;
  done: number;
}

/**
 * Each tree's open and done tasks, for a page of trees in one statement: a count per tree and
 * status read from the (tree_id, status) index alone (migration 0023), never a task row.
 */
export async function treesTaskCounts(db: Db, treeIds: readonly string[]): Promise<Map<string, TaskCounts>> {
  const counts = new Map<string, TaskCounts>(treeIds.map((id) => [id, { open: 0, done: 0 }]));
  if (treeIds.length === 0) return counts;
  const rows = await db
    .selectFrom('tasks')
    .select((eb) => ['tree_id', 'status', eb.fn.countAll().as('n')])
    .where('tree_id', 'in', treeIds)
    .where('status', 'in', ['todo', 'open', 'done'])
    .groupBy(['tree_id', 'status'])
    .execute();
  for (const row of rows) {
    const tree = counts.get(row.tree_id)!;
    if (row.status === 'done') tree.done += Number(row.n);
    else tree.open += Number(row.n);
  }
  return counts;
}
