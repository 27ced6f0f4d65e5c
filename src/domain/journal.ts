import type { Db } from '../store/db.js';
import { newId } from './ids.js';

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

export const JOURNAL_KEEP_PER_OWNER = 2_000;
export const JOURNAL_LATEST = 100;
const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT = 200;

/**
 * The agent call journal. Records are buffered in memory and written in batches off the request
 * path (every second, at 200 pending, and on close), then each touched owner is trimmed to the
 * newest 2,000. `enabled: false` turns recording off (benchmarks measure its cost).
 */
export class Journal {
  private pending: (AgentCall & { owner_id: string })[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly db: Db, readonly enabled = true, private readonly onError: (err: unknown) => void = () => {}) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  record(ownerId: string, call: Omit<AgentCall, 'id' | 'at'>): void {
    if (!this.enabled) return;
    this.pending.push({ id: newId('agc'), at: new Date().toISOString(), owner_id: ownerId, ...call, duration_ms: Math.max(0, Math.round(call.duration_ms)) });
    if (this.pending.length >= FLUSH_AT) void this.flush();
  }

  /** Writes everything recorded so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch(this.onError);
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < batch.length; i += 100) await trx.insertInto('agent_calls').values(batch.slice(i, i + 100)).execute();
      for (const owner of new Set(batch.map((c) => c.owner_id))) {
        const cutoff = await trx.selectFrom('agent_calls').select('seq').where('owner_id', '=', owner).orderBy('seq', 'desc').offset(JOURNAL_KEEP_PER_OWNER).limit(1).executeTakeFirst();
        if (cutoff !== undefined) await trx.deleteFrom('agent_calls').where('owner_id', '=', owner).where('seq', '<=', cutoff.seq).execute();
      }
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** The owner's latest calls, newest first (pending ones included). */
  async latest(ownerId: string, limit = JOURNAL_LATEST): Promise<AgentCall[]> {
    await this.flush();
    const rows = await this.db.selectFrom('agent_calls').selectAll().where('owner_id', '=', ownerId).orderBy('seq', 'desc').limit(limit).execute();
    return rows.map((r) => ({
      id: r.id, at: r.at, surface: r.surface as AgentCall['surface'], operation: r.operation, status: r.status,
      duration_ms: r.duration_ms, token_id: r.token_id, client: r.client,
    }));
  }
}
