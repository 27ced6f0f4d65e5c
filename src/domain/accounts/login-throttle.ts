import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';

const WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins allowed in the window (CONTRACT §19): per email from one client address, and per
 * client address whatever the email. Keyed by address, so failures elsewhere never lock out a
 * correct password from an address that has not failed.
 */
const LIMITS = [
  { key: (email: string, address: string) => `login:${address}:${email}`, limit: 10 },
  { key: (_email: string, address: string) => `login:${address}`, limit: 50 },
] as const;

/** Failures of one email, from any address, before its sign-ins are slowed. */
const FREE_FAILURES_PER_EMAIL = 10;
const DELAY_STEP_MS = 100;
const MAX_DELAY_MS = 3_000;
/** Past this many failures the delay is at its most, so counting further would change nothing. */
const COUNTED_FAILURES_PER_EMAIL = FREE_FAILURES_PER_EMAIL + MAX_DELAY_MS / DELAY_STEP_MS;

/** How long a sign-in for an email waits, given the failures for it from every address in the window. */
export function loginDelayMs(failures: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(0, failures - FREE_FAILURES_PER_EMAIL) * DELAY_STEP_MS);
}

/**
 * Checks a password under the sign-in limits. A slot of each limit is taken before the check,
 * so parallel attempts cannot all pass a count that is only written afterwards: of a burst, at
 * most the limit's worth are checked, the rest are refused at once. A wrong password keeps its
 * slots (a failure); a right one, or a check that could not finish, gives them back, so sign-ins
 * never use up a budget meant for failures.
 *
 * Failures for one email from many addresses only slow its sign-ins (a delay that grows with
 * them), whatever the address: a lockout there would let anyone lock the owner out.
 * @throws rate_limited
 */
export async function withLoginLimits<T>(
  deps: Deps,
  email: string,
  address: string,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const taken: string[] = [];
  for (const { key, limit } of LIMITS) {
    const slot = await deps.limiter.consume(key(email, address), limit, WINDOW_MS);
    if (!slot.allowed) {
      await giveBack(deps, taken);
      throw new DomainError('rate_limited', 'Too many failed sign-in attempts; try again later.', [
        { retry_after: slot.resetSeconds },
      ]);
    }
    taken.push(key(email, address));
  }
  const emailKey = `login-email:${email}`;
  let result: T | null;
  try {
    const recent = await deps.limiter.peek(emailKey, COUNTED_FAILURES_PER_EMAIL, WINDOW_MS);
    const delay = loginDelayMs(recent.limit - recent.remaining);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    result = await check();
  } catch (err) {
    await giveBack(deps, taken);
    throw err;
  }
  if (result === null) await deps.limiter.consume(emailKey, COUNTED_FAILURES_PER_EMAIL, WINDOW_MS);
  else await giveBack(deps, taken);
  return result;
}

async function giveBack(deps: Deps, keys: string[]): Promise<void> {
  for (const key of keys) await deps.limiter.giveBack(key);
}
