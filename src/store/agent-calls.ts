import { CompiledQuery } from 'kysely';
import type { DialectName, Trx } from './db.js';
import { prepareByName } from './pg-prepared.js';

/** The columns of one journal row, in the order `insertAgentCalls` takes their values. */
export const AGENT_CALL_COLUMNS = ['id', 'owner_id', 'at', 'surface', 'operation', 'status', 'duration_ms', 'token_id', 'client'] as const;

/** Rows per statement: a full chunk keeps one prepared statement busy; the tail gets its own. */
const CHUNK = 200;

const insertSql = new Map<string, string>();

/** `insert … values (…), (…)` for `rows` rows, in the dialect's placeholder style, built once per size. */
function insertOf(dialect: DialectName, rows: number): string {
  const key = `${dialect} ${rows}`;
  let text = insertSql.get(key);
  if (text === undefined) {
    let n = 0;
    const placeholder = dialect === 'postgres' ? () => `$${++n}` : () => '?';
    const tuples = Array.from({ length: rows }, () => `(${AGENT_CALL_COLUMNS.map(placeholder).join(', ')})`);
    text = `insert into agent_calls (${AGENT_CALL_COLUMNS.join(', ')}) values ${tuples.join(', ')}`;
    insertSql.set(key, text);
    // Only the full chunk: tails come in every size, and each name costs the database a plan per connection.
    if (dialect === 'postgres' && rows === CHUNK) prepareByName(text);
  }
  return text;
}

/**
 * Inserts journal rows given as one flat list of values (AGENT_CALL_COLUMNS per row) as
 * multi-row inserts whose SQL text repeats, so the database keeps a prepared statement for
 * them (on PostgreSQL a named one); Kysely's builder would compile every batch anew, which costs
 * more than the insert.
 */
export async function insertAgentCalls(trx: Trx, dialect: DialectName, values: unknown[]): Promise<void> {
  const width = AGENT_CALL_COLUMNS.length;
  const total = values.length / width;
  for (let start = 0; start < total; start += CHUNK) {
    const rows = Math.min(CHUNK, total - start);
    await trx.executeQuery(CompiledQuery.raw(insertOf(dialect, rows), values.slice(start * width, (start + rows) * width)));
  }
}
