import { Redis } from 'ioredis';
import type { RateLimiter, RateLimitResult } from '../domain/rate-limit.js';

/**
 * One sorted set per key holds the request times inside the window. The script runs atomically
 * in Redis and uses Redis's clock, so every instance sharing the server shares one exact budget.
 */
const SCRIPT = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local consume = ARGV[3] == '1'
local member = ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  allowed = 1
  if consume then
    redis.call('ZADD', key, now, member)
    count = count + 1
  end
end
if count > 0 then redis.call('PEXPIRE', key, window) end
local reset = window
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

type ScriptResult = [number, number, number];

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private seq = 0;
  private readonly instance = Math.random().toString(36).slice(2);
  /** Where a lost connection is reported, once per outage; the composition root points it at the log. */
  onError: ((err: unknown) => void) | null = null;

  constructor(
    url: string,
    private readonly prefix = 'tt:rl:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.redis.defineCommand('ttRateLimit', { numberOfKeys: 1, lua: SCRIPT });
    // Unheard, ioredis prints a stack trace to stderr on every reconnect attempt while Redis is down.
    let reported = false;
    this.redis.on('error', (err: unknown) => {
      // Errors before a reporter is set (while the app is still being built) wait for the next one.
      if (reported || this.onError === null) return;
      reported = true;
      this.onError(err);
    });
    this.redis.on('ready', () => (reported = false));
  }

  consume(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.run(key, limit, windowMs, true);
  }

  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.run(key, limit, windowMs, false);
  }

  /** The newest member goes: one atomic command, so a concurrent consume never sees half of it. */
  async giveBack(key: string): Promise<void> {
    await this.redis.zpopmax(this.prefix + key);
  }

  /**
   * A client that is not connected would queue the command and retry (the offline queue), so a
   * readiness probe would wait; it answers at once that Redis is unreachable instead.
   */
  async ping(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // QUIT would wait in the offline queue for a server that may never come back.
    if (this.redis.status !== 'ready') {
      this.redis.disconnect();
      return;
    }
    await this.redis.quit();
  }

  private async run(key: string, limit: number, windowMs: number, consume: boolean): Promise<RateLimitResult> {
    // Members must be unique even for two requests in the same millisecond on different instances.
    const member = `${this.instance}:${++this.seq}`;
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<ScriptResult>>)
      .ttRateLimit!;
    const [allowed, count, resetMs] = await command.call(
      this.redis,
      this.prefix + key,
      windowMs,
      limit,
      consume ? '1' : '0',
      member,
    );
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }
}
