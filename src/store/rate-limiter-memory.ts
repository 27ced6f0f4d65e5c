import type { RateLimiter, RateLimitResult } from '../domain/rate-limit.js';

/** Request times, oldest first; entries before `head` have left the window (dropped in batches). */
interface Hits {
  times: number[];
  head: number;
}

/** A rolling-window limiter for one process: exact, amortized O(1) per call, swept of idle keys. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly hits = new Map<string, Hits>();
  private readonly sweeper: NodeJS.Timeout;
  private longestWindowMs = 60_000;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.consumeNow(key, limit, windowMs);
  }

  consumeNow(key: string, limit: number, windowMs: number): RateLimitResult {
    return this.decide(key, limit, windowMs, true);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.decide(key, limit, windowMs, false);
  }

  async giveBack(key: string): Promise<void> {
    const hits = this.hits.get(key);
    if (hits !== undefined && hits.times.length > hits.head) hits.times.pop();
  }

  /** In-process counters are always reachable. */
  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.hits.clear();
  }

  private decide(key: string, limit: number, windowMs: number, count: boolean): RateLimitResult {
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    const now = this.now();
    let hits = this.hits.get(key);
    if (hits === undefined) {
      hits = { times: [], head: 0 };
      this.hits.set(key, hits);
    }
    const { times } = hits;
    while (hits.head < times.length && times[hits.head]! <= now - windowMs) hits.head++;
    // Moving the live entries down only once half the array is dead keeps each call O(1) on average.
    if (hits.head > 64 && hits.head * 2 > times.length) {
      hits.times = times.slice(hits.head);
      hits.head = 0;
    }
    const live = hits.times.length - hits.head;
    const allowed = live < limit;
    if (allowed && count) hits.times.push(now);
    const counted = hits.times.length - hits.head;
    const oldest = hits.times[hits.head];
    const resetMs = oldest === undefined ? windowMs : oldest + windowMs - now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  private sweep(): void {
    const cutoff = this.now() - this.longestWindowMs;
    for (const [key, hits] of this.hits) {
      const newest = hits.times[hits.times.length - 1];
      if (newest === undefined || newest <= cutoff) this.hits.delete(key);
    }
  }
}
