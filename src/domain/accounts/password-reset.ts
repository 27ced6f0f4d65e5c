import type { Deps } from '../deps.js';
import { checkPassword, findUserByEmail } from './accounts.js';
import type { UserRow } from '../../store/rows.js';
import { randomSecret, sha256 } from '../crypto.js';
import { invalid } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import { hashPassword } from './passwords.js';
import { revokeAllTokens } from '../agents/tokens.js';
import { revokeAllGrants } from '../agents/oauth-grants.js';
import { normalizeEmail } from '../validate.js';
import { appLink } from '../links.js';
import { markEmailVerified } from './email-verification.js';
import { writeOutsideTrees } from '../write.js';

/** Reset links work for an hour, once. */
export const RESET_TTL_MS = 3_600_000;

export interface ResetRequestAnswer {
  status: 'queued';
  delivery: 'sent' | 'not_configured';
}

/**
 * Accepts a password reset request. The answer is the same whether or not the account exists
 * (no enumeration): with a mailer, a single-use token (stored hashed) is mailed after the
 * answer is decided, off the request path, so the timing says nothing either. Without
 * `SMTP_URL` nothing is minted and `delivery` is `not_configured`.
 * @throws validation_failed (not an email address)
 */
export async function requestPasswordReset(
  deps: Deps,
  emailInput: string,
  onMailError: (err: unknown) => void,
): Promise<ResetRequestAnswer> {
  const email = normalizeEmail('/email', emailInput);
  const mailer = deps.mailer;
  if (mailer === null) return { status: 'queued', delivery: 'not_configured' };
  void (async () => {
    const user = await findUserByEmail(deps, email);
    if (user === null) return;
    const { token, link } = await mintResetLink(deps, user);
    await mailer.send({
      to: user.email,
      subject: 'Reset your Task Tree password',
      text: [
        'Someone asked to reset the password of your Task Tree account.',
        `To choose a new one, open ${link.toString()} within the hour,`,
        `or send this token to POST /api/v1/auth/reset/complete: ${token}`,
        '',
        'Resetting signs out every session and ends every personal token and MCP session of the account.',
        'If it was not you, ignore this mail; your password stays as it is.',
      ].join('\n'),
    });
  })().catch(onMailError);
  return { status: 'queued', delivery: 'sent' };
}

/**
 * A single-use reset token for an hour (stored hashed) and the link that carries it. Mailed by
 * a reset request; printed by `tasktree user reset-link` where no mail is configured.
 */
export async function mintResetLink(deps: Deps, user: UserRow): Promise<{ token: string; link: URL }> {
  const token = randomSecret(32);
  const now = new Date();
  await deps.db
    .insertInto('password_resets')
    .values({
      id: newId('rst'),
      owner_id: user.id,
      token_hash: sha256(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return { token, link: appLink(deps.config.publicUrl, '/reset', { token }) };
}

/**
 * Sets a new password with a mailed token (once, within the hour), then ends everything that
 * signed in with the old one: every personal token and OAuth grant (and so their MCP sessions)
 * and every browser session. The caller signs the current browser in afresh. The email counts
 * as verified from then on (CONTRACT §19).
 * @throws validation_failed (password bounds; token unknown, used or expired)
 */
export async function completePasswordReset(deps: Deps, token: string, password: string): Promise<UserRow> {
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const user = await writeOutsideTrees(deps, async ({ trx }) => {
    // One conditional update finds and spends the token, so two racing completions cannot both pass.
    const reset = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('owner_id')
      .executeTakeFirst();
    if (reset === undefined) throw invalid('/token', 'is unknown, already used or expired; ask for a new reset mail');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', reset.owner_id)
      .execute();
    await trx.deleteFrom('sessions').where('owner_id', '=', reset.owner_id).execute();
    await revokeAllTokens(deps, reset.owner_id, trx);
    await revokeAllGrants(trx, reset.owner_id);
    const row = await trx.selectFrom('users').selectAll().where('id', '=', reset.owner_id).executeTakeFirstOrThrow();
    // The token reached its holder through the account's mailbox (or from the operator, who may
    // verify an address anyway): completing it proves the address as a verification link would.
    return markEmailVerified(trx, row, now);
  });
  // Again after the commit: a lookup made while the transaction ran may have kept the old rows.
  deps.credentials.forgetUser(user.id);
  return user;
}

/** Retention: reset tokens past their hour (used or not) can never complete a reset; their rows go. */
export async function purgeExpiredResets(deps: Deps, now = new Date()): Promise<number> {
  const result = await deps.db
    .deleteFrom('password_resets')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
