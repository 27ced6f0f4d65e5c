import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases, type DatabaseKind } from '../helpers/app.js';
import { migratorOf as migrator, useStore } from '../helpers/store.js';
import type { Store } from '../../src/store/db.js';
import { Journal } from '../../src/domain/agents/journal.js';
import { CALLS_PER_BATCH } from '../../src/store/agent-calls.js';

const BEFORE = '2026-11-25-0010-task-place';

async function addUser(store: Store, id: string): Promise<void> {
  await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
    values (${id}, ${id}, ${`${id}@example.test`}, 'x', 'Someone', 'en', 'UTC', 'seed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
    store.db,
  );
}

/** A journal row of the old one-row-per-call table. */
function oldCall(owner: string, n: number) {
  return {
    id: `agc_${String(n).padStart(26, '0')}`,
    owner_id: owner,
    at: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
    surface: n % 2 === 0 ? 'rest' : 'mcp',
    operation: `GET /op${n}`,
    status: 200 + (n % 3),
    duration_ms: n % 7,
    token_id: `pat_${owner}`,
    client: n % 5 === 0 ? null : 'curl',
  };
}

describe.each(databases)('the journal moving to batches (%s)', (kind: DatabaseKind) => {
  const storeOf = useStore(kind, { migrate: false });

  it('moves every stored call over, each owner’s in order and whole, and migrates back', async () => {
    const store = storeOf();
    const result = await migrator(store).migrateTo(BEFORE);
    expect(result.error).toBeUndefined();
    await addUser(store, 'usr_busy');
    await addUser(store, 'usr_quiet');
    // Interleaved as the old flushes wrote them: the busy owner's 250 and the quiet one's 3.
    const rows = Array.from({ length: 250 }, (_, n) => oldCall('usr_busy', n));
    rows.splice(100, 0, oldCall('usr_quiet', 0), oldCall('usr_quiet', 1));
    rows.push(oldCall('usr_quiet', 2));
    const old = store.db as any;
    for (const row of rows) await old.insertInto('agent_calls').values(row).execute();

    expect((await migrator(store).migrateToLatest()).error).toBeUndefined();
    const batches = await store.db
      .selectFrom('agent_call_batches')
      .select(['owner_id', 'call_count'])
      .orderBy('seq')
      .execute();
    expect(batches.filter((b) => b.owner_id === 'usr_busy').map((b) => b.call_count)).toEqual([
      CALLS_PER_BATCH,
      CALLS_PER_BATCH,
      50,
    ]);
    expect(batches.filter((b) => b.owner_id === 'usr_quiet').map((b) => b.call_count)).toEqual([3]);

    const journal = new Journal(store.db);
    try {
      const latest = await journal.latest('usr_busy', 120);
      expect(latest).toEqual(
        Array.from({ length: 120 }, (_, i) => {
          const { owner_id: _owner, ...call } = oldCall('usr_busy', 249 - i);
          // Calls journaled before changes existed (migration 0024) name none.
          return { ...call, change_id: null };
        }),
      );
      expect((await journal.latest('usr_quiet')).map((c) => c.operation)).toEqual(['GET /op2', 'GET /op1', 'GET /op0']);
    } finally {
      await journal.close();
    }

    expect((await migrator(store).migrateTo(BEFORE)).error).toBeUndefined();
    const back = await old.selectFrom('agent_calls').selectAll().orderBy('seq').execute();
    expect(
      back.map(({ seq: _seq, ...row }: Record<string, unknown>) => ({
        ...row,
        status: Number(row.status),
        duration_ms: Number(row.duration_ms),
      })),
    ).toEqual([...rows.filter((r) => r.owner_id === 'usr_busy'), ...rows.filter((r) => r.owner_id === 'usr_quiet')]);
  });
});
