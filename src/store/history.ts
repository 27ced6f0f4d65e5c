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
] as const satisfies readonly (keyof NewHistoryRow)[];

const insertHistoryRow = compiledOnce((db, ...values: string[]) =>
  db
    .insertInto('history')
    .values(Object.fromEntries(historyColumns.map((column, i) => [column, values[i]])) as NewHistoryRow),
);

/** Writes one history entry (the write runner stamps it: domain/write.ts). */
export async function insertHistory(db: Db | Trx, row: NewHistoryRow): Promise<void> {
  await insertHistoryRow(db, ...historyColumns.map((column) => row[column]));
}
