import { newId } from '../ids.js';
import type { CallBatch, StoredCall } from '../../store/agent-calls.js';

/** What a caller records: CONTRACT §8's fields but the id and time, which the journal adds. */
export interface CallRecord {
  surface: 'rest' | 'mcp';
  operation: string;
  status: number;
  duration_ms: number;
  token_id: string;
  client: string | null;
  /** The change the call wrote (CONTRACT §16.3); null when it wrote nothing. Absent: null. */
  change_id?: string | null;
}

const OPERATION_MAX = 200;
/** Int32 fields per call: owner, surface, operation, token and client (as word numbers), status, duration, change (a word number). */
const FIELDS = 8;
const NO_CLIENT = -1;

/**
 * The calls recorded since the last flush, column by column: times in a Float64Array, the rest
 * in an Int32Array, each text as the number of a word kept once. A busy service records tens of
 * thousands of calls a second; as two objects each, they lived until the flush, long enough for
 * the garbage collector to copy them into the old generation, and the flush then regrouped them.
 */
export class PendingCalls {
  count = 0;
  private at: Float64Array;
  private fields: Int32Array;
  private readonly wordNumbers = new Map<string, number>();
  private readonly words: string[] = [];

  constructor(capacity = 1024) {
    this.at = new Float64Array(Math.max(capacity, 16));
    this.fields = new Int32Array(this.at.length * FIELDS);
  }

  add(ownerId: string, call: CallRecord, atMs: number): void {
    if (this.count === this.at.length) this.grow();
    const i = this.count++;
    const base = i * FIELDS;
    const fields = this.fields;
    this.at[i] = atMs;
    fields[base] = this.word(ownerId);
    fields[base + 1] = this.word(call.surface);
    fields[base + 2] = this.word(
      call.operation.length > OPERATION_MAX ? call.operation.slice(0, OPERATION_MAX) : call.operation,
    );
    fields[base + 3] = this.word(call.token_id);
    fields[base + 4] = call.client === null ? NO_CLIENT : this.word(call.client);
    fields[base + 5] = call.status;
    fields[base + 6] = Math.min(2 ** 31 - 1, Math.max(0, Math.round(call.duration_ms)));
    fields[base + 7] = call.change_id == null ? NO_CLIENT : this.word(call.change_id);
  }

  /**
   * The calls worth writing as stored batches (see appendAgentCalls): each owner's, oldest
   * first, in batches of up to `perBatch`. An owner's calls older than its newest `keep` would be
   * trimmed at once, so a busy agent costs at most `keep` calls per flush.
   */
  batches(keep: number, perBatch: number): CallBatch[] {
    const byOwner = new Map<number, number[]>();
    for (let i = 0; i < this.count; i++) {
      const owner = this.fields[i * FIELDS]!;
      let calls = byOwner.get(owner);
      if (calls === undefined) byOwner.set(owner, (calls = []));
      calls.push(i);
    }
    const times = new IsoTimes();
    const out: CallBatch[] = [];
    for (const [owner, calls] of byOwner) {
      for (let start = Math.max(0, calls.length - keep); start < calls.length; start += perBatch) {
        const end = Math.min(calls.length, start + perBatch);
        const stored: StoredCall[] = [];
        for (let k = start; k < end; k++) stored.push(this.storedCall(calls[k]!, times));
        out.push({ owner: this.words[owner]!, count: end - start, json: JSON.stringify(stored) });
      }
    }
    return out;
  }

  private storedCall(i: number, times: IsoTimes): StoredCall {
    const f = this.fields;
    const base = i * FIELDS;
    const atMs = this.at[i]!;
    const words = this.words;
    const client = f[base + 4]!;
    const change = f[base + 7]!;
    return [
      newId('agc', atMs),
      times.of(atMs),
      words[f[base + 1]!]!,
      words[f[base + 2]!]!,
      f[base + 5]!,
      f[base + 6]!,
      words[f[base + 3]!]!,
      client === NO_CLIENT ? null : words[client]!,
      change === NO_CLIENT ? null : words[change]!,
    ];
  }

  private word(text: string): number {
    let n = this.wordNumbers.get(text);
    if (n === undefined) {
      n = this.words.push(text) - 1;
      this.wordNumbers.set(text, n);
    }
    return n;
  }

  private grow(): void {
    const at = new Float64Array(this.at.length * 2);
    at.set(this.at);
    const fields = new Int32Array(at.length * FIELDS);
    fields.set(this.fields);
    this.at = at;
    this.fields = fields;
  }
}

/** ISO times of milliseconds, the last one kept: calls of one millisecond share their time. */
class IsoTimes {
  private lastMs = -1;
  private lastText = '';

  of(ms: number): string {
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastText = new Date(ms).toISOString();
    }
    return this.lastText;
  }
}
