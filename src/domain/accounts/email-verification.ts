import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { getUserByEmail, isEmailVerified } from './accounts.js';
import type { UserRow } from '../../store/rows.js';
import { bindInvitations } from '../trees/invitations.js';
import { randomSecret, sha256 } from '../crypto.js';
import { DomainError, invalid } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import { appLink } from '../links.js';
import { writeOutsideTrees } from '../write.js';

/**
 * Email verification (CONTRACT §19): an account proves it reads its address by opening a
 * mailed one-time link. Only then do invitations sent to that address reach it, so nobody can
 * take a tree shared with an address by registering it first.
 */

/** A verification link works for a day, once: long enough for a mail read the next morning. */
export const VERIFY_TTL_MS = 24 * 3_600_000;

/**
 * Registering needs no proof, so anyone can sign up with someone else's address: this bounds how
 * many mails such an account can send that address.
 */
const VERIFY_MAILS_PER_HOUR = 5;

export interface MailAnswer {
  status: 'queued';
  delivery: 'sent' | 'not_configured';
}

/**
 * Mails the signed-in account a one-time link to `/verify?token=…` (the token stored hashed).
 * Without `SMTP_URL` nothing is minted and `delivery` is `not_configured`; the operator can
 * verify with `tasktree user verify`. The mail goes out after the answer, off the request path.
 * @throws conflict (already verified), rate_limited (more than 5 mails an hour)
 */
export async function requestEmailVerification(
  deps: Deps,
  actor: Actor,
  onMailError: (err: unknown) => void,
): Promise<MailAnswer> {
  const user = actor.user;
  if (isEmailVerified(user))
    throw new DomainError('conflict', 'This email address is verified already.', [
      { path: '/email', message: 'is verified' },
    ]);
  if (deps.mailer === null) return { status: 'queued', delivery: 'not_configured' };
  await takeVerificationMailSlot(deps, user.id);
  return mailVerificationLink(deps, user, onMailError);
}

/**
 * Counts a verification mail against the account's hourly allowance (5).
 * @throws rate_limited
 */
export async function takeVerificationMailSlot(deps: Deps, userId: string): Promise<void> {
  const slot = await deps.limiter.consume(`verify-mail:${userId}`, VERIFY_MAILS_PER_HOUR, 3_600_000);
  if (!slot.allowed) {
    throw new DomainError(
      'rate_limited',
      'Too many verification mails in an hour; use the last one, or try again later.',
      [{ retry_after: slot.resetSeconds }],
    );
  }
}

/** Gives back a slot taken for a mail that was not sent after all (an email change that failed). */
export async function returnVerificationMailSlot(deps: Deps, userId: string): Promise<void> {
  await deps.limiter.giveBack(`verify-mail:${userId}`);
}

/**
 * Mints a one-time link for the account's current address and mails it, after the answer (the
 * slot is the caller's to take). Without a mailer nothing is minted.
 */
export async function mailVerificationLink(
  deps: Deps,
  user: Pick<UserRow, 'id' | 'email'>,
  onMailError: (err: unknown) => void,
): Promise<MailAnswer> {
  const mailer = deps.mailer;
  if (mailer === null) return { status: 'queued', delivery: 'not_configured' };
  const token = randomSecret(32);
  const now = new Date();
  await deps.db
    .insertInto('email_verifications')
    .values({
      id: newId('evf'),
      owner_id: user.id,
      email: user.email,
      token_hash: sha256(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + VERIFY_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  const link = appLink(deps.config.publicUrl, '/verify', { token });
  mailer
    .send({
      to: user.email,
      subject: 'Verify your Task Tree email address',
      text: [
        'Someone signed in to Task Tree with this address asked to verify it.',
        `To confirm that it is yours, open ${link.toString()} within a day while signed in,`,
        `or send this token to POST /api/v1/auth/verify/complete: ${token}`,
        '',
        'Once verified, trees shared with this address are offered to your account.',
        'If it was not you, ignore this mail; nothing changes.',
      ].join('\n'),
    })
    .catch(onMailError);
  return { status: 'queued', delivery: 'sent' };
}

/**
 * Spends a mailed token of the signed-in account (once, within its day) and marks its email
 * verified. A token of another account, or for an address the account no longer has, is as
 * unknown as a made-up one.
 * @throws validation_failed (token unknown, used, expired or someone else's)
 */
export async function completeEmailVerification(deps: Deps, actor: Actor, token: string): Promise<UserRow> {
  const now = nowIso();
  const user = await writeOutsideTrees(deps, async ({ trx }) => {
    // One conditional update finds and spends the token, so two racing completions cannot both pass.
    const spent = await trx
      .updateTable('email_verifications')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('owner_id', '=', actor.user.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('email')
      .executeTakeFirst();
    const row = await trx.selectFrom('users').selectAll().where('id', '=', actor.user.id).executeTakeFirstOrThrow();
    if (spent === undefined || spent.email !== row.email) {
      throw invalid('/token', 'is unknown, already used or expired; ask for a new verification mail');
    }
    return markEmailVerified(trx, row, now);
  });
  deps.credentials.forgetUser(user.id);
  return user;
}

/** The operator's `tasktree user verify --email E`: vouches for the address. @throws not_found */
export async function verifyEmailByOperator(deps: Deps, email: string): Promise<UserRow> {
  const found = await getUserByEmail(deps, email);
  const user = await writeOutsideTrees(deps, ({ trx }) => markEmailVerified(trx, found, nowIso()));
  deps.credentials.forgetUser(user.id);
  return user;
}

/**
 * Records that the account reads its address (keeping the first time it proved it) and binds
 * the pending invitations sent to that address, which it may now see and accept.
 */
export async function markEmailVerified(trx: Trx, user: UserRow, now: string): Promise<UserRow> {
  let row = user;
  if (!isEmailVerified(user)) {
    row = await trx
      .updateTable('users')
      .set({ email_verified_at: now, updated_at: now })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  await bindInvitations(trx, row.id, row.email);
  return row;
}

/** Retention: verification tokens past their day (used or not) can never verify anything; their rows go. */
export async function purgeExpiredVerifications(deps: Deps, now = new Date()): Promise<number> {
  const result = await deps.db
    .deleteFrom('email_verifications')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
