import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../../store/rows.js';
import { checkPassword, findUserByEmail, getUser } from './accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { withLoginLimits } from './login-throttle.js';
import { mailVerificationLink, returnVerificationMailSlot, takeVerificationMailSlot } from './email-verification.js';
import { collectDoomed } from '../cleanup.js';
import { effectivePlan } from '../plans.js';
import { DomainError } from '../errors.js';
import { nowIso } from '../ids.js';
import { normalizeEmail } from '../validate.js';
import { nextVersion } from '../../store/task-version.js';
import { writeOutsideTrees } from '../write.js';

/**
 * What a signed-in person changes about the account itself (CONTRACT §18, "Account"): the
 * password, the email, or the account as a whole. Each proves the person knows the password
 * first, under the sign-in limits, so a borrowed browser session is not enough.
 */

/**
 * Checks the signed-in account's password as a sign-in would: a wrong one is 401 and counts as a
 * failed sign-in for the account's email from this address (the limits of `withLoginLimits`).
 * @throws validation_failed, unauthenticated, rate_limited
 */
async function requirePassword(deps: Deps, actor: Actor, password: string, address: string, path: string) {
  checkPassword(password, path);
  const user = await getUser(deps, actor.user.id);
  const ok = await withLoginLimits(deps, user.email, address, async () =>
    (await verifyPassword(user.password_hash, password)) ? user : null,
  );
  if (ok === null)
    throw new DomainError('unauthenticated', 'The password is not correct.', [{ path, message: 'is not correct' }]);
  return ok;
}

/**
 * Sets a new password after checking the current one. Every browser session of the account ends
 * (the caller signs this browser in afresh) and unused reset links die; personal tokens, OAuth
 * grants and their MCP sessions stay.
 * @throws validation_failed, unauthenticated, rate_limited
 */
export async function changePassword(
  deps: Deps,
  actor: Actor,
  input: { current_password: string; new_password: string },
  address: string,
): Promise<UserRow> {
  checkPassword(input.new_password, '/new_password');
  const user = await requirePassword(deps, actor, input.current_password, address, '/current_password');
  const passwordHash = await hashPassword(input.new_password);
  const now = nowIso();
  const row = await writeOutsideTrees(deps, async ({ trx }) => {
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('sessions').where('owner_id', '=', user.id).execute();
    await trx.deleteFrom('password_resets').where('owner_id', '=', user.id).execute();
    return updated;
  });
  deps.credentials.forgetUser(user.id);
  return row;
}

/**
 * Moves the account to another email after checking the password. The new address is not proven:
 * `email_verified` turns false and, with mail configured, a verification link goes to the new
 * address (CONTRACT §19, counted in the hourly allowance). Memberships already taken stay; links
 * mailed to the old address no longer verify anything. The same email again changes nothing.
 * @throws validation_failed, unauthenticated, rate_limited, conflict (email in use)
 */
export async function changeEmail(
  deps: Deps,
  actor: Actor,
  input: { email: string; password: string },
  address: string,
  onMailError: (err: unknown) => void,
): Promise<UserRow> {
  const email = normalizeEmail('/email', input.email);
  const user = await requirePassword(deps, actor, input.password, address, '/password');
  if (email === user.email) return user;
  const taken = () =>
    new DomainError('conflict', 'Another account uses this email.', [
      { path: '/email', message: 'is taken', reason: 'email_in_use' },
    ]);
  if ((await findUserByEmail(deps, email)) !== null) throw taken();
  if (deps.mailer !== null) await takeVerificationMailSlot(deps, user.id);
  let row: UserRow;
  try {
    row = await deps.db
      .updateTable('users')
      .set({ email, email_verified_at: null, updated_at: nowIso() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (deps.mailer !== null) await returnVerificationMailSlot(deps, user.id);
    // Another account took the address between the look and the write: the unique index refused it.
    if ((await findUserByEmail(deps, email)) !== null) throw taken();
    throw err;
  }
  deps.credentials.forgetUser(user.id);
  await mailVerificationLink(deps, row, onMailError);
  return row;
}

/** A paid plan the billing provider still charges for: it must be cancelled in the portal first. */
function hasLiveSubscription(deps: Deps, user: UserRow): boolean {
  return (
    deps.billing !== null &&
    user.billing_customer_id !== null &&
    effectivePlan(user.plan, user.plan_expires_at) !== 'seed'
  );
}

/**
 * Deletes the account after checking the password. Gone, in one transaction: the account's trees
 * with everything in them (the attachments' stored content once it commits, through the same
 * collectors as any delete), its personal tokens, OAuth grants, MCP sessions, browser sessions,
 * memberships, reset and verification links, journal and idempotency records. On trees of others
 * what the person wrote stays, with `author_id` null, and their assignments go. Members of the
 * person's trees lose them at the next request: nothing about a tree is cached.
 * @throws validation_failed, unauthenticated, rate_limited, conflict (a live subscription)
 */
export async function deleteAccount(deps: Deps, actor: Actor, password: string, address: string): Promise<void> {
  const user = await requirePassword(deps, actor, password, address, '/password');
  if (hasLiveSubscription(deps, user))
    throw new DomainError(
      'conflict',
      'This account has a paid subscription. Cancel it in the billing portal first, then delete the account.',
      [{ path: '/', message: 'has a live subscription' }],
    );
  const id = user.id;
  const afterCommit = await writeOutsideTrees(deps, async ({ trx }) => {
    const trees = await trx.selectFrom('trees').select('id').where('owner_id', '=', id).execute();
    const cleanups: (() => Promise<void>)[] = [];
    for (const tree of trees) cleanups.push(await collectDoomed(trx, deps, { treeId: tree.id }));
    await trx.deleteFrom('trees').where('owner_id', '=', id).execute();

    // What remains of the person on trees of others: their assignments go, their words stay unsigned.
    const assigned = await trx
      .selectFrom('task_assignees')
      .innerJoin('tasks', 'tasks.id', 'task_assignees.task_id')
      .select(['tasks.id', 'tasks.assignee_ids'])
      .where('task_assignees.user_id', '=', id)
      .execute();
    await trx.deleteFrom('task_assignees').where('user_id', '=', id).execute();
    const now = nowIso();
    for (const task of assigned) {
      const kept = (JSON.parse(task.assignee_ids) as string[]).filter((userId) => userId !== id);
      await trx
        .updateTable('tasks')
        .set({ assignee_ids: JSON.stringify(kept), updated_at: now, version: nextVersion })
        .where('id', '=', task.id)
        .execute();
    }
    await trx.updateTable('comments').set({ author_id: null }).where('author_id', '=', id).execute();
    await trx.updateTable('messages').set({ author_id: null }).where('author_id', '=', id).execute();

    await trx.deleteFrom('members').where('user_id', '=', id).execute();
    await trx.deleteFrom('mcp_sessions').where('owner_id', '=', id).execute();
    await trx.deleteFrom('personal_tokens').where('owner_id', '=', id).execute();
    await trx.deleteFrom('oauth_grants').where('owner_id', '=', id).execute();
    await trx.deleteFrom('sessions').where('owner_id', '=', id).execute();
    await trx.deleteFrom('password_resets').where('owner_id', '=', id).execute();
    await trx.deleteFrom('email_verifications').where('owner_id', '=', id).execute();
    await trx.deleteFrom('agent_call_batches').where('owner_id', '=', id).execute();
    await trx.deleteFrom('idempotency_keys').where('owner_id', '=', id).execute();
    await trx.deleteFrom('users').where('id', '=', id).execute();
    return async () => {
      for (const cleanup of cleanups) await cleanup();
    };
  });
  deps.credentials.forgetUser(id);
  await afterCommit();
}
