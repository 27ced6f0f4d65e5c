import type { Deps } from './deps.js';

/** A request's Idempotency-Key replays its answer for 7 days (CONTRACT §5). */
export const IDEMPOTENCY_REPLAY_MS = 7 * 86_400_000;

/** Removes the keys past their 7 days; a retention job (src/retention.ts). */
export async function purgeExpiredIdempotencyKeys(deps: Deps, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_REPLAY_MS).toISOString();
  const result = await deps.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
