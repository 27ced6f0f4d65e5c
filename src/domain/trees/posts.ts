import type { Selectable } from 'kysely';
import type { Database } from '../../store/schema.js';
import { sumTextBytes } from '../../store/text-bytes.js';
import type { ExportSection } from './export-section.js';
import { checkName } from '../validate.js';
import { POST_BODY_MAX } from '../fields.js';

/** Comments on tasks and messages on trees: a body of 1 to POST_BODY_MAX characters, not all blank (CONTRACT §10, §18). */
export function checkBody(body: string): void {
  checkName('/body', body, POST_BODY_MAX);
}

/** Comments and messages join the export the same way: every row of the tree, its body counted in the budget. */
export function postsExportSection<T extends 'comments' | 'messages'>(
  table: T,
  present: (row: Selectable<Database[T]>) => unknown,
): ExportSection {
  return {
    key: table,
    async measure(trx, deps, treeId) {
      const m = await trx
        .selectFrom(table as 'comments')
        .select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(trx, ['body']).as('bytes')])
        .where('tree_id', '=', treeId)
        .executeTakeFirstOrThrow();
      return { count: Number(m.n), bytes: Number(m.bytes ?? 0) };
    },
    readPage: (trx, _deps, treeId, after, limit) =>
      trx
        .selectFrom(table as 'comments')
        .selectAll()
        .where('tree_id', '=', treeId)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(limit)
        .execute(),
    present: (row) => present(row as Selectable<Database[T]>),
  };
}
