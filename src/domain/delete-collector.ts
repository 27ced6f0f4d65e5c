import type { Trx } from '../store/db.js';
import type { Deps } from './deps.js';

/** What a delete is about to remove: tasks by id, the tasks of some projects, or a whole tree. */
export type Doomed = { taskIds: string[] } | { projectIds: string[] } | { treeId: string };

/**
 * Lets a store outside the database (attachment blobs) learn what a delete removes while the rows
 * are still there to read. Called inside the delete's transaction; returns the work to do once it
 * has committed.
 */
export type DeleteCollector = (trx: Trx, deps: Deps, doomed: Doomed) => Promise<() => Promise<void>>;
