import { describe, expect, it } from 'vitest';
import { PendingCalls, type CallRecord } from '../../src/domain/agents/pending-calls.js';
import type { StoredCall } from '../../src/store/agent-calls.js';

const call = (operation: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  surface: 'rest',
  operation,
  status: 200,
  duration_ms: 1,
  token_id: 'pat_one',
  client: null,
  ...extra,
});

/** Each batch as the owner, its count and its calls parsed back. */
function parsed(pending: PendingCalls, keep: number, perBatch: number) {
  return pending
    .batches(keep, perBatch)
    .map((batch) => ({ owner: batch.owner, count: batch.count, calls: JSON.parse(batch.json) as StoredCall[] }));
}

describe('pending journal calls', () => {
  it('stores every field of a call as the journal reads it back', () => {
    const pending = new PendingCalls();
    const at = Date.UTC(2026, 10, 24, 12, 0, 0, 5);
    pending.add(
      'usr_a',
      call('tools/call "get_task" \\ ünïcode', {
        surface: 'mcp',
        status: 404,
        duration_ms: 2.6,
        token_id: 'oag_grant',
        client: 'Claude "Desktop"',
        change_id: 'chg_one',
      }),
      at,
    );
    pending.add('usr_a', call('GET /tasks/{id}', { duration_ms: -3 }), at);
    pending.add('usr_a', call('GET /auth/me', { duration_ms: 1e12 }), at + 1);
    const [batch] = parsed(pending, 2_000, 100);
    expect(batch!.owner).toBe('usr_a');
    expect(batch!.count).toBe(3);
    const [first, second, third] = batch!.calls;
    expect(first!.slice(1)).toEqual([
      '2026-11-24T12:00:00.005Z',
      'mcp',
      'tools/call "get_task" \\ ünïcode',
      404,
      3,
      'oag_grant',
      'Claude "Desktop"',
      'chg_one',
    ]);
    expect(second!.slice(1)).toEqual([
      '2026-11-24T12:00:00.005Z',
      'rest',
      'GET /tasks/{id}',
      200,
      0,
      'pat_one',
      null,
      null,
    ]);
    expect(third!.slice(1)).toEqual([
      '2026-11-24T12:00:00.006Z',
      'rest',
      'GET /auth/me',
      200,
      2 ** 31 - 1,
      'pat_one',
      null,
      null,
    ]);
    const ids = batch!.calls.map((stored) => stored[0]);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^agc_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ids[2]! > ids[0]!).toBe(true);
  });

  it('cuts an operation to 200 characters', () => {
    const pending = new PendingCalls();
    pending.add('usr_a', call('x'.repeat(500)), Date.now());
    expect(parsed(pending, 2_000, 100)[0]!.calls[0]![3]).toBe('x'.repeat(200));
  });

  it('groups calls by owner in the order owners first called, oldest first, in batches, beyond its first capacity', () => {
    const pending = new PendingCalls(16);
    for (let i = 0; i < 250; i++) pending.add(i % 5 === 0 ? 'usr_b' : 'usr_a', call(`op${i}`), 1_000 + i);
    expect(pending.count).toBe(250);
    const batches = parsed(pending, 2_000, 100);
    expect(batches.map((batch) => [batch.owner, batch.count])).toEqual([
      ['usr_b', 50],
      ['usr_a', 100],
      ['usr_a', 100],
    ]);
    expect(batches[0]!.calls.map((stored) => stored[3])).toEqual(Array.from({ length: 50 }, (_, k) => `op${k * 5}`));
    const forA = batches.slice(1).flatMap((batch) => batch.calls.map((stored) => stored[3]));
    expect(forA).toEqual(
      Array.from({ length: 250 }, (_, i) => i)
        .filter((i) => i % 5 !== 0)
        .map((i) => `op${i}`),
    );
  });

  it('writes only the newest calls an owner keeps', () => {
    const pending = new PendingCalls();
    for (let i = 0; i < 30; i++) pending.add('usr_a', call(`op${i}`), 1_000 + i);
    pending.add('usr_b', call('only'), 2_000);
    const batches = parsed(pending, 12, 5);
    expect(batches.map((batch) => [batch.owner, batch.count])).toEqual([
      ['usr_a', 5],
      ['usr_a', 5],
      ['usr_a', 2],
      ['usr_b', 1],
    ]);
    expect(batches.slice(0, 3).flatMap((batch) => batch.calls.map((stored) => stored[3]))).toEqual(
      Array.from({ length: 12 }, (_, k) => `op${18 + k}`),
    );
  });
});
