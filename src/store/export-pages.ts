import type { Trx } from './types.js';
import type { HistoryRow, ProjectRow, TaskRow } from './rows.js';
import { compiledOnce } from './compiled.js';

/** Rows read at once: an export holds one page of rows, not the whole tree, while it is written. */
export const EXPORT_PAGE_ROWS = 1000;

// The pages of the three big lists, compiled once: inside the export's read snapshot (ours, see
// inReadSnapshot) they run directly on SQLite's connection and read rows as arrays (see
// compiledOnce), a third less than through Kysely.
const projectsPage = compiledOnce((db, tree: string, after: number) =>
  db
    .selectFrom('projects')
    .selectAll()
    .where('tree_id', '=', tree)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(EXPORT_PAGE_ROWS),
);
const tasksPage = compiledOnce((db, tree: string, after: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where('tree_id', '=', tree)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(EXPORT_PAGE_ROWS),
);
const historyPage = compiledOnce((db, tree: string, since: string, after: number) =>
  db
    .selectFrom('history')
    .selectAll()
    .where('tree_id', '=', tree)
    .where('at', '>=', since)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(EXPORT_PAGE_ROWS),
);

/** A tree's projects after sequence `after`, in order, one page. */
export function projectPageOfTree(trx: Trx, treeId: string, after: number): Promise<ProjectRow[]> {
  return projectsPage(trx, treeId, after);
}

/** A tree's tasks after sequence `after`, in order, one page. */
export function taskPageOfTree(trx: Trx, treeId: string, after: number): Promise<TaskRow[]> {
  return tasksPage(trx, treeId, after);
}

/** A tree's history entries at or after `since` and after sequence `after`, in order, one page. */
export function historyPageOfTree(trx: Trx, treeId: string, since: string, after: number): Promise<HistoryRow[]> {
  return historyPage(trx, treeId, since, after);
}
