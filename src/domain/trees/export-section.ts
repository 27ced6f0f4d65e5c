import type { Trx } from '../../store/db.js';
import type { Deps } from '../deps.js';

/** Rows of an export list carry their creation sequence, by which the list is ordered and paged. */
export interface SeqRow {
  seq: number;
}

/**
 * One part of the export beyond projects, tasks and history: how to count it and how to read it.
 * The modules of comments, messages and attachments each define theirs; export.ts lists them.
 */
export interface ExportSection<Row extends SeqRow = SeqRow> {
  key: 'attachments' | 'comments' | 'messages';
  measure(trx: Trx, deps: Deps, treeId: string): Promise<{ count: number; bytes: number }>;
  /** Up to `limit` rows of the tree with a sequence above `after`, in sequence order. */
  readPage(trx: Trx, deps: Deps, treeId: string, after: number, limit: number): Promise<Row[]>;
  present(row: Row): unknown;
}
