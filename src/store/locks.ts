import { sql } from 'kysely';
import type { Trx } from './types.js';
import { isPostgres } from './compiled.js';

/**
 * Serializes writers of one owner inside a transaction, so count-then-insert limits hold under
 * concurrency. SQLite has one writer at a time already; PostgreSQL locks the user row.
 */
export async function lockOwner(trx: Trx, ownerId: string): Promise<void> {
  if (isPostgres(trx)) {
    await sql`select id from users where id = ${ownerId} for update`.execute(trx);
  }
}

/**
 * Serializes writers that change where rows sit in some trees (parents, moves across trees), so
 * a cycle check or a subtree read stays true until commit. PostgreSQL locks the tree rows one by
 * one in id order, so two writers that need the same two trees queue instead of deadlocking.
 * SQLite needs nothing: its one connection runs one transaction at a time.
 * @returns whether locks were taken (rows read before them may be stale and are worth reading again)
 */
export async function lockTrees(trx: Trx, treeIds: Iterable<string>): Promise<boolean> {
  if (!isPostgres(trx)) return false;
  for (const id of [...new Set(treeIds)].sort()) {
    // NO KEY UPDATE, like the counters' UPDATE: it queues movers behind each other but not the
    // foreign-key checks of plain edits (history rows reference the tree), which would deadlock.
    await sql`select id from trees where id = ${id} for no key update`.execute(trx);
  }
  return true;
}
