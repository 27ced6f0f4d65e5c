/** One rolling-window decision. */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (a slot frees). */
  resetSeconds: number;
}

/**
 * Rolling-window counters. `consume` counts a request only when it is allowed, so a client
 * that keeps hammering does not extend its own ban; `peek` only reads.
 */
export interface RateLimiter {
  consume(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** `consume` answered at once, by a limiter that decides in this process (no promise on the request path). */
  consumeNow?(key: string, limit: number, windowMs: number): RateLimitResult;
  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /**
   * Takes back one request counted under `key` (the newest): a slot reserved before work whose
   * outcome turned out not to count, as a sign-in whose password was right.
   */
  giveBack(key: string): Promise<void>;
  /** Rejects while the counters cannot be reached (readiness: a shared store that is down). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Where a shared store reports a lost connection, once per outage (the composition root points it at the log). */
  onError?: ((err: unknown) => void) | null;
}

export const MINUTE_MS = 60_000;
