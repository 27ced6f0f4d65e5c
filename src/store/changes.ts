import { sql } from 'kysely';
import type { Db, Trx } from './types.js';
import type { HistoryRow } from './rows.js';
import { isPostgres } from './compiled.js';

/** Reads of history by change (CONTRACT §16.3), for reverts. */

const CHUNK = 500;

/** Every entry of these changes, oldest first. */
export async function entriesOfChanges(db: Db | Trx, changeIds: readonly string[]): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for (let start = 0; start < changeIds.length; start += CHUNK) {
    rows.push(
      ...(await db
        .selectFrom('history')
        .selectAll()
        .where('change_id', 'in', changeIds.slice(start, start + CHUNK))
        .execute()),
    );
  }
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** The reverts of these changes: which change reverted which (each pair once). */
export async function revertsOf(
  db: Db | Trx,
  changeIds: readonly string[],
): Promise<{ change_id: string; reverts: string }[]> {
  const out: { change_id: string; reverts: string }[] = [];
  for (let start = 0; start < changeIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('history')
      .select(['change_id', 'reverts'])
      .distinct()
      .where('reverts', 'in', changeIds.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) if (row.reverts !== null) out.push({ change_id: row.change_id, reverts: row.reverts });
  }
  return out;
}

/** What a later entry tells a revert: which record it names and in which change. */
export interface LaterEntry {
  seq: number;
  entity: string;
  entity_id: string;
  change_id: string;
}

/** The entries of these trees written after sequence `after`, oldest first. */
export async function entriesAfter(trx: Trx, treeIds: readonly string[], after: number): Promise<LaterEntry[]> {
  if (treeIds.length === 0) return [];
  const rows = await trx
    .selectFrom('history')
    .select(['seq', 'entity', 'entity_id', 'change_id'])
    .where('tree_id', 'in', treeIds)
    .where('seq', '>', after)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/** The changes one credential made in a tree at or after `since`, oldest first. */
export async function credentialChangesInTree(
  db: Db | Trx,
  tree: { id: string; ownerId: string },
  credentialId: string,
  since: string,
): Promise<string[]> {
  // The owner and the moment bound the read to the window asked for (history_owner_at).
  const rows = await db
    .selectFrom('history')
    .select(['change_id', 'seq'])
    .where('owner_id', '=', tree.ownerId)
    .where('tree_id', '=', tree.id)
    .where('credential_id', '=', credentialId)
    .where('at', '>=', since)
    .orderBy('seq')
    .execute();
  return [...new Set(rows.map((row) => row.change_id))];
}

/**
 * Locks these rows until commit (PostgreSQL; SQLite runs one transaction at a time), in id order,
 * so a person's edit of a record a revert puts back either committed before the revert reads the
 * later entries, or waits until the revert has committed. NO KEY UPDATE, as every write locks.
 */
export async function lockRows(trx: Trx, table: 'tasks' | 'projects', ids: readonly string[]): Promise<void> {
  if (!isPostgres(trx) || ids.length === 0) return;
  const sorted = [...new Set(ids)].sort();
  for (let start = 0; start < sorted.length; start += CHUNK) {
    const chunk = sorted.slice(start, start + CHUNK);
    await sql`select id from ${sql.table(table)} where id in (${sql.join(chunk)}) order by id for no key update`.execute(
      trx,
    );
  }
}

/** A tree one of the change's entries is in; undefined for an unknown change. */
export async function treeOfChange(db: Db | Trx, changeId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('history')
    .select('tree_id')
    .where('change_id', '=', changeId)
    .limit(1)
    .executeTakeFirst();
  return row?.tree_id;
}
