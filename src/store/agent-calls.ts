import { CompiledQuery } from 'kysely';
import type { Db, DialectName, Trx } from './types.js';
import { isPostgres, nameStatement } from './compiled.js';

/**
 * One agent call as stored: the fields of CONTRACT §8 but the owner, in this order. A batch's
 * `calls` is a JSON array of these, oldest first.
 */
export type StoredCall = [
  id: string,
  at: string,
  surface: string,
  operation: string,
  status: number,
  duration_ms: number,
  token_id: string,
  client: string | null,
  /** Absent in calls stored before changes existed (CONTRACT §16.3). */
  change_id?: string | null,
];

/**
 * The most calls one row holds. The journal keeps an owner's newest whole batches that hold at
 * most 2,000 calls, so it keeps between 1,900 and 2,000 of a busy owner's calls (and all of a
 * quiet one's, up to 2,000), and the latest 100 are always in the newest two rows.
 */
export const CALLS_PER_BATCH = 100;

/** Batches per statement: a full chunk keeps one prepared statement busy; the tail gets its own. */
const CHUNK = 50;
const COLUMNS = ['owner_id', 'call_count', 'calls'];

const insertSql = new Map<string, string>();

/** `insert … values (…), (…)` for `rows` batches, in the dialect's placeholder style, built once per size. */
function insertOf(trx: Trx, rows: number): string {
  const dialect: DialectName = isPostgres(trx) ? 'postgres' : 'sqlite';
  const key = `${dialect} ${rows}`;
  let text = insertSql.get(key);
  if (text === undefined) {
    let n = 0;
    const placeholder = dialect === 'postgres' ? () => `$${++n}` : () => '?';
    const tuples = Array.from({ length: rows }, () => `(${COLUMNS.map(placeholder).join(', ')})`);
    text = `insert into agent_call_batches (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`;
    insertSql.set(key, text);
  }
  // Only the full chunk: tails come in every size, and each name costs the database a plan per connection.
  if (rows === CHUNK) nameStatement(trx, text);
  return text;
}

/** An owner's calls as one stored row: `json` is the JSON array of their StoredCalls, oldest first. */
export interface CallBatch {
  owner: string;
  count: number;
  json: string;
}

/**
 * Stores the batches (each owner's oldest first), in order, then drops each owner's oldest
 * batches beyond its newest 2,000 calls (`keep`). Multi-row inserts whose SQL text repeats keep
 * one prepared statement busy (on PostgreSQL a named one).
 */
export async function appendAgentCalls(trx: Trx, batches: CallBatch[], keep: number): Promise<void> {
  const width = COLUMNS.length;
  // A call recorded just before its account was deleted has no one left to belong to.
  const owners = [...new Set(batches.map((batch) => batch.owner))];
  const live = new Set<string>();
  for (let start = 0; start < owners.length; start += CHUNK) {
    const rows = await trx
      .selectFrom('users')
      .select('id')
      .where('id', 'in', owners.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) live.add(row.id);
  }
  if (live.size < owners.length) batches = batches.filter((batch) => live.has(batch.owner));
  for (let start = 0; start < batches.length; start += CHUNK) {
    const chunk = batches.slice(start, start + CHUNK);
    const values = chunk.flatMap((batch) => [batch.owner, batch.count, batch.json]);
    await trx.executeQuery(CompiledQuery.raw(insertOf(trx, values.length / width), values));
  }
  for (const owner of new Set(batches.map((batch) => batch.owner))) await trimOwner(trx, owner, keep);
}

/** Deletes the owner's batches older than the newest ones that together hold at most `keep` calls. */
async function trimOwner(trx: Trx, owner: string, keep: number): Promise<void> {
  const batches = await trx
    .selectFrom('agent_call_batches')
    .select(['seq', 'call_count'])
    .where('owner_id', '=', owner)
    .orderBy('seq', 'desc')
    .execute();
  let kept = 0;
  for (const batch of batches) {
    kept += batch.call_count;
    if (kept > keep) {
      await trx.deleteFrom('agent_call_batches').where('owner_id', '=', owner).where('seq', '<=', batch.seq).execute();
      return;
    }
  }
}

/** The owner's newest `limit` calls, newest first: the newest two batches, and rarely one more read. */
export async function latestAgentCalls(db: Db, owner: string, limit: number): Promise<StoredCall[]> {
  const found: StoredCall[] = [];
  let before: number | null = null;
  // Every batch holds at least one call, so the second read (of as many batches as calls are missing) is the last.
  for (let rows = Math.min(2, limit); found.length < limit; rows = limit - found.length) {
    let query = db.selectFrom('agent_call_batches').select(['seq', 'calls']).where('owner_id', '=', owner);
    if (before !== null) query = query.where('seq', '<', before);
    const batches = await query.orderBy('seq', 'desc').limit(rows).execute();
    for (const batch of batches) {
      const calls = JSON.parse(batch.calls) as StoredCall[];
      for (let i = calls.length - 1; i >= 0 && found.length < limit; i--) found.push(calls[i]!);
      before = batch.seq;
    }
    if (batches.length < rows) break;
  }
  return found;
}
