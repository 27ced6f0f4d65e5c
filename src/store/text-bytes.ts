import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './db.js';

/** SUM of the UTF-8 byte lengths of text columns, in each dialect's words. */
export function sumTextBytes(dialect: DialectName, columns: string[]): RawBuilder<number | null> {
  const parts = columns.map((c) =>
    dialect === 'postgres' ? sql`octet_length(${sql.ref(c)})` : sql`length(cast(${sql.ref(c)} as blob))`,
  );
  return sql<number | null>`sum(${sql.join(parts, sql` + `)})`;
}
