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

/** The tables whose rows carry a `version` a conditional write compares. */
export type VersionedTable = 'trees' | 'projects' | 'tasks';

/**
 * Locks one row until commit and answers its version as committed now, for a write whose
 * precondition compares it (CONTRACT §16.2, If-Match): two writers that checked the same version
 * queue here, and the second sees the first one's version. NO KEY UPDATE, as lockTrees takes: it
 * queues writers of the row, not the foreign-key checks of rows added under it. Take it after any
 * tree lock (trees first, then rows, as every write locks them).
 * @returns the version; null when the row is gone; undefined on SQLite, whose one connection runs
 * one transaction at a time, so what the write has read is current and nothing needs a lock
 */
export async function lockVersion(trx: Trx, table: VersionedTable, id: string): Promise<number | null | undefined> {
  if (!isPostgres(trx)) return undefined;
  const { rows } = await sql<{
    version: number;
  }>`select version from ${sql.table(table)} where id = ${id} for no key update`.execute(trx);
  return rows[0]?.version ?? null;
}
