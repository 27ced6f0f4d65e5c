import type { Trx } from '../store/db.js';
import type { Deps } from './deps.js';

/** What a delete is about to remove: tasks by id, the tasks of some projects, or a whole tree. */
export type Doomed = { taskIds: string[] } | { projectIds: string[] } | { treeId: string };

/** Called inside the delete's transaction; returns the work to do once it has committed. */
type Collector = (trx: Trx, deps: Deps, doomed: Doomed) => Promise<() => Promise<void>>;
const collectors: Collector[] = [];

/**
 * Lets stores outside the database (attachment blobs) learn what a delete removes while the
 * rows are still there to read, and clean up only after the delete has committed.
 */
export function onDelete(collector: Collector): void {
  collectors.push(collector);
}

export async function collectDoomed(trx: Trx, deps: Deps, doomed: Doomed): Promise<() => Promise<void>> {
  const afterCommit = await Promise.all(collectors.map((collect) => collect(trx, deps, doomed)));
  return async () => {
    for (const work of afterCommit) await work();
  };
}
