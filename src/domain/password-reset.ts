import type { Deps } from './deps.js';
import { normalizeEmail } from './validate.js';

export interface ResetRequestAnswer {
  status: 'queued';
  delivery: 'sent' | 'not_configured';
}

/**
 * Accepts a password reset request. The answer is the same whether or not the account exists
 * (no enumeration), and it never claims a mail went out: mail delivery is not built yet, so
 * `delivery` stays `not_configured` and no reset token is minted that nobody could receive.
 * Operators reset through the CLI's reset link (CONTRACT §13) once completion exists.
 * @throws validation_failed (not an email address)
 */
export async function requestPasswordReset(_deps: Deps, emailInput: string): Promise<ResetRequestAnswer> {
  normalizeEmail('/email', emailInput);
  return { status: 'queued', delivery: 'not_configured' };
}
