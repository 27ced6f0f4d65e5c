import type { RateLimiter, RateLimitResult } from '../domain/rate-limit.js';

/** Timestamps of the requests still inside the window, oldest first. */
type Hits = number[];

/** A rolling-window limiter for one process: exact, O(expired) per call, swept of idle keys. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly hits = new Map<string, Hits>();
  private readonly sweeper: NodeJS.Timeout;
  private longestWindowMs = 60_000;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.decide(key, limit, windowMs, true);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.decide(key, limit, windowMs, false);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.hits.clear();
  }

  private decide(key: string, limit: number, windowMs: number, count: boolean): RateLimitResult {
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    const now = this.now();
    let hits = this.hits.get(key);
    if (hits === undefined) {
      hits = [];
      this.hits.set(key, hits);
    }
    let expired = 0;
    while (expired < hits.length && hits[expired]! <= now - windowMs) expired++;
    if (expired > 0) hits.splice(0, expired);
    const allowed = hits.length < limit;
    if (allowed && count) hits.push(now);
    const oldest = hits[0];
    const resetMs = oldest === undefined ? windowMs : oldest + windowMs - now;
    return { allowed, limit, remaining: Math.max(0, limit - hits.length), resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
  }

  private sweep(): void {
    const cutoff = this.now() - this.longestWindowMs;
    for (const [key, hits] of this.hits) {
      const newest = hits[hits.length - 1];
      if (newest === undefined || newest <= cutoff) this.hits.delete(key);
    }
  }
}
