import type { Db } from '../../store/db.js';
import { appendAgentCalls, CALLS_PER_BATCH, latestAgentCalls } from '../../store/agent-calls.js';
import { PendingCalls, type CallRecord } from './pending-calls.js';
import type { Static } from '@sinclair/typebox';
import type { AgentCall as AgentCallSchema } from '../schemas/agents.js';

/** CONTRACT §8: metadata only. Never a body, query string, search term, note text or credential. */
export type AgentCall = Static<typeof AgentCallSchema>;

export type { CallRecord };

export const JOURNAL_KEEP_PER_OWNER = 2_000;
export const JOURNAL_LATEST = 100;
const FLUSH_EVERY_MS = 1_000;
/** Pending records that force an early flush, which also bounds the memory they hold (~1 MB). */
const FLUSH_AT = 20_000;

/**
 * The agent call journal. A request only writes its fields into columns (PendingCalls), which are
 * written every second (sooner at 20,000 pending, and on close), each owner's calls as rows of
 * up to 100 (see appendAgentCalls), and each owner touched is then trimmed to at most its newest
 * 2,000. `enabled: false` turns recording off (benchmarks measure its cost).
 */
export class Journal {
  private pending = new PendingCalls();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** Where a failed flush is reported; the composition root points it at the log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly db: Db,
    readonly enabled = true,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Records not yet written (the metrics' journal buffer). */
  get pendingCount(): number {
    return this.pending.count;
  }

  record(ownerId: string, call: CallRecord): void {
    if (!this.enabled) return;
    this.pending.add(ownerId, call, Date.now());
    if (this.pending.count === FLUSH_AT) void this.flush();
  }

  /** Writes everything recorded so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch((err: unknown) => this.onError(err));
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.count === 0) return;
    const batches = this.pending.batches(JOURNAL_KEEP_PER_OWNER, CALLS_PER_BATCH);
    // The next second is likely as busy as this one: sized for it, the columns need not grow.
    this.pending = new PendingCalls(Math.min(this.pending.count, FLUSH_AT));
    await this.db.transaction().execute((trx) => appendAgentCalls(trx, batches, JOURNAL_KEEP_PER_OWNER));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** The owner's latest calls, newest first (pending ones included). */
  async latest(ownerId: string, limit = JOURNAL_LATEST): Promise<AgentCall[]> {
    await this.flush();
    const calls = await latestAgentCalls(this.db, ownerId, limit);
    return calls.map(([id, at, surface, operation, status, duration_ms, token_id, client, change_id]) => ({
      id,
      at,
      surface: surface as AgentCall['surface'],
      operation,
      status,
      duration_ms,
      token_id,
      client,
      change_id: change_id ?? null,
    }));
  }
}
