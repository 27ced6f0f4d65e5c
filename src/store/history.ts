import type { Db, Trx } from './types.js';
import type { NewHistoryRow } from './rows.js';
import { compiledOnce } from './compiled.js';

/** The history columns a write sets, in the order store statements bind them. */
export const historyColumns = [
  'id',
  'owner_id',
  'tree_id',
  'at',
  'actor_id',
  'via',
  'entity',
  'entity_id',
  'action',
  'changes',
  'change_id',
  'credential_id',
  'client',
  'reverts',
  'restore',
] as const satisfies readonly (keyof NewHistoryRow)[];

const insertHistoryRow = compiledOnce((db, ...values: (string | null)[]) =>
  db
    .insertInto('history')
    .values(Object.fromEntries(historyColumns.map((column, i) => [column, values[i]])) as NewHistoryRow),
);

/** Writes one history entry (the write runner stamps it: domain/write.ts). */
export async function insertHistory(db: Db | Trx, row: NewHistoryRow): Promise<void> {
  await insertHistoryRow(db, ...historyColumns.map((column) => row[column]));
}

const CHUNK = 200;

/** Writes many history entries with multi-row statements, in order (a cascade, an import, a revert). */
export async function insertHistoryRows(db: Db | Trx, rows: readonly NewHistoryRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto('history')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
}
