import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/** The most calls one stored batch holds (as in store/agent-calls.ts, frozen here with the migration). */
const CALLS_PER_BATCH = 100;
const COLUMNS = ['id', 'at', 'surface', 'operation', 'status', 'duration_ms', 'token_id', 'client'] as const;

/**
 * The agent call journal is stored as batches: one row holds up to 100 of an owner's calls, in
 * order, as a JSON array of arrays (the columns above). A busy agent's second of calls was
 * hundreds of row inserts and as many deletes, the largest part of a token request's CPU; now
 * it is a few rows. Existing calls move over, each owner's in order.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('agent_call_batches')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('call_count', 'integer', (c) => c.notNull())
    .addColumn('calls', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('agent_call_batches_owner_seq')
    .on('agent_call_batches')
    .columns(['owner_id', 'seq'])
    .execute();

  // Owner by owner (at most 2,000 calls each), so memory stays small however many accounts there are.
  const owners = await db.selectFrom('agent_calls').select('owner_id').distinct().orderBy('owner_id').execute();
  for (const { owner_id: owner } of owners) {
    const rows = await db
      .selectFrom('agent_calls')
      .select(COLUMNS)
      .where('owner_id', '=', owner)
      .orderBy('seq')
      .execute();
    for (let start = 0; start < rows.length; start += CALLS_PER_BATCH) {
      const calls = rows.slice(start, start + CALLS_PER_BATCH).map((row) => COLUMNS.map((column) => row[column]));
      await db
        .insertInto('agent_call_batches')
        .values({ owner_id: owner, call_count: calls.length, calls: JSON.stringify(calls) })
        .execute();
    }
  }
  await db.schema.dropTable('agent_calls').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('agent_calls')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('surface', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('client', 'text')
    .execute();
  await db.schema.createIndex('agent_calls_owner_seq').on('agent_calls').columns(['owner_id', 'seq']).execute();
  const batches = await db.selectFrom('agent_call_batches').select(['owner_id', 'calls']).orderBy('seq').execute();
  for (const batch of batches) {
    const calls = JSON.parse(batch.calls as string) as unknown[][];
    for (const call of calls) {
      await db
        .insertInto('agent_calls')
        .values({ owner_id: batch.owner_id, ...Object.fromEntries(COLUMNS.map((column, k) => [column, call[k]])) })
        .execute();
    }
  }
  await db.schema.dropTable('agent_call_batches').execute();
}
