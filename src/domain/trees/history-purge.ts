import type { Deps } from '../deps.js';
import { planLimits, planNames } from '../plans.js';

/**
 * Deletes history entries older than each owner's effective plan window (CONTRACT §4: 7, 90,
 * 365 days). Run periodically; returns how many entries went.
 */
export async function purgeHistory(deps: Deps, now = new Date()): Promise<number> {
  const nowIso = now.toISOString();
  let removed = 0;
  for (const plan of planNames) {
    const cutoff = new Date(now.getTime() - planLimits[plan].historyDays * 86_400_000).toISOString();
    const result = await deps.db
      .deleteFrom('history')
      .where('at', '<', cutoff)
      .where('owner_id', 'in', (eb) => {
        const users = eb.selectFrom('users').select('id');
        // An expired paid plan falls back to Seed, as effectivePlan says.
        return plan === 'seed'
          ? users.where((w) =>
              w.or([
                w('plan', '=', 'seed'),
                w.and([w('plan_expires_at', 'is not', null), w('plan_expires_at', '<=', nowIso)]),
              ]),
            )
          : users
              .where('plan', '=', plan)
              .where((w) => w.or([w('plan_expires_at', 'is', null), w('plan_expires_at', '>', nowIso)]));
      })
      .executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
