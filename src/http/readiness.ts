import { sql } from 'kysely';
import type { Deps } from '../domain/deps.js';

/** A probe answers within this; a database that hangs counts as down, like one that refuses. */
const CHECK_TIMEOUT_MS = 2_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What must answer before this instance takes traffic: the database, and Redis when configured
 * (the shared rate-limit counters; without them every counted request fails). Resolves to the
 * names of the dependencies that did not answer, empty when ready.
 */
export async function unreachableDependencies(deps: Deps): Promise<string[]> {
  const checks: [string, Promise<unknown>][] = [['database', sql`select 1`.execute(deps.db)]];
  if (deps.config.redisUrl !== null) checks.push(['redis', deps.limiter.ping()]);
  const results = await Promise.allSettled(checks.map(([, check]) => within(check, CHECK_TIMEOUT_MS)));
  return checks.filter((_, i) => results[i]!.status === 'rejected').map(([name]) => name);
}
