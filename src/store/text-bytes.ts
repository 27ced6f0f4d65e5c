import { sql, type RawBuilder } from 'kysely';
import type { Db, Trx } from './types.js';
import { isPostgres } from './compiled.js';

/** SUM of the UTF-8 byte lengths of text columns, in each dialect's words. */
export function sumTextBytes(db: Db | Trx, columns: string[]): RawBuilder<number | null> {
  const postgres = isPostgres(db);
  const parts = columns.map((c) =>
    postgres ? sql`octet_length(${sql.ref(c)})` : sql`length(cast(${sql.ref(c)} as blob))`,
  );
  return sql<number | null>`sum(${sql.join(parts, sql` + `)})`;
}
