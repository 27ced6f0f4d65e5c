import type { Db, DialectName } from '../../store/db.js';
import { appendAgentCalls, latestAgentCalls, type StoredCall } from '../../store/agent-calls.js';
import { newId } from '../ids.js';

/** CONTRACT §8: metadata only. Never a body, query string, search term, note text or credential. */
export interface AgentCall {
  id: string;
  at: string;
  surface: 'rest' | 'mcp';
  operation: string;
  status: number;
  duration_ms: number;
  token_id: string;
  client: string | null;
}

export type CallRecord = Omit<AgentCall, 'id' | 'at'>;

export const JOURNAL_KEEP_PER_OWNER = 2_000;
export const JOURNAL_LATEST = 100;
const FLUSH_EVERY_MS = 1_000;
/** Pending records that force an early flush, which also bounds the memory they hold (~4 MB). */
const FLUSH_AT = 20_000;

interface Pending {
  ownerId: string;
  atMs: number;
  call: CallRecord;
}

/**
 * The records worth writing, in order: an owner's calls older than their newest 2,000 in this
 * batch would be trimmed at once, so a busy agent costs at most 2,000 inserts per flush.
 */
function newestPerOwner(batch: Pending[]): Pending[] {
  const seen = new Map<string, number>();
  const kept: Pending[] = [];
  for (let i = batch.length - 1; i >= 0; i--) {
    const record = batch[i]!;
    const count = (seen.get(record.ownerId) ?? 0) + 1;
    seen.set(record.ownerId, count);
    if (count <= JOURNAL_KEEP_PER_OWNER) kept.push(record);
  }
  return kept.reverse();
}

/**
 * The agent call journal. A request only appends a small object to a buffer; the buffer is
 * written every second (sooner at 20,000 pending, and on close), each owner's calls as rows of
 * up to 100 (see appendAgentCalls), and each owner touched is then trimmed to at most its newest
 * 2,000. `enabled: false` turns recording off (benchmarks measure its cost).
 */
export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** Where a failed flush is reported; the composition root points it at the log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    readonly enabled = true,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Records not yet written (the metrics' journal buffer). */
  get pendingCount(): number {
    return this.pending.length;
  }

  record(ownerId: string, call: CallRecord): void {
    if (!this.enabled) return;
    this.pending.push({ ownerId, atMs: Date.now(), call });
    if (this.pending.length === FLUSH_AT) void this.flush();
  }

  /** Writes everything recorded so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch((err: unknown) => this.onError(err));
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = newestPerOwner(this.pending);
    this.pending = [];
    const byOwner = new Map<string, StoredCall[]>();
    // Calls of one millisecond share their time: a busy second has far fewer of them than calls.
    let lastMs = -1;
    let lastAt = '';
    for (const { ownerId, atMs, call } of batch) {
      if (atMs !== lastMs) {
        lastMs = atMs;
        lastAt = new Date(atMs).toISOString();
      }
      let calls = byOwner.get(ownerId);
      if (calls === undefined) byOwner.set(ownerId, (calls = []));
      calls.push([newId('agc', atMs), lastAt, call.surface, call.operation.slice(0, 200), call.status,
        Math.max(0, Math.round(call.duration_ms)), call.token_id, call.client]);
    }
    await this.db.transaction().execute((trx) => appendAgentCalls(trx, this.dialect, byOwner, JOURNAL_KEEP_PER_OWNER));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** The owner's latest calls, newest first (pending ones included). */
  async latest(ownerId: string, limit = JOURNAL_LATEST): Promise<AgentCall[]> {
    await this.flush();
    const calls = await latestAgentCalls(this.db, ownerId, limit);
    return calls.map(([id, at, surface, operation, status, duration_ms, token_id, client]) => ({
      id, at, surface: surface as AgentCall['surface'], operation, status, duration_ms, token_id, client,
    }));
  }
}
