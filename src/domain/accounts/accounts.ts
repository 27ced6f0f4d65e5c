import type { Deps } from '../deps.js';
import type { UserRow } from '../../store/rows.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import { effectivePlan, isPlanName, type PlanName } from '../plans.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { withLoginLimits } from './login-throttle.js';
import { canonicalTimeZone, checkEnum, checkLength, normalizeEmail } from '../validate.js';
import { PASSWORD_MAX, PASSWORD_MIN, PROFILE_NAME_MAX } from '../fields.js';
import type { Actor } from '../actor.js';
import type { Static } from '@sinclair/typebox';
import { languages, type User as UserSchema } from '../schemas/accounts.js';

export { languages };

export type Language = (typeof languages)[number];

export type User = Static<typeof UserSchema>;

export function presentUser(row: UserRow, now?: Date): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    language: row.language as Language,
    timezone: row.timezone,
    plan: isPlanName(row.plan) ? row.plan : 'seed',
    plan_expires_at: row.plan_expires_at,
    effective_plan: effectivePlan(row.plan, row.plan_expires_at, now),
    email_verified: isEmailVerified(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Whether the account proved it reads its address (CONTRACT §19). */
export function isEmailVerified(user: Pick<UserRow, 'email_verified_at'>): boolean {
  return user.email_verified_at !== null;
}

export function checkPassword(password: string, path = '/password'): void {
  checkLength(path, password, PASSWORD_MIN, PASSWORD_MAX);
}

export interface RegisterInput {
  email: string;
  password: string;
  name?: string;
  language?: string;
  timezone?: string;
}

/** @throws validation_failed, conflict (email taken) */
export async function registerUser(deps: Deps, input: RegisterInput): Promise<UserRow> {
  const email = normalizeEmail('/email', input.email);
  checkPassword(input.password);
  const name = input.name ?? '';
  checkLength('/name', name, 0, PROFILE_NAME_MAX);
  const language = input.language ?? 'en';
  checkEnum('/language', language, languages);
  const timezone = canonicalTimeZone('/timezone', input.timezone ?? 'UTC');
  const passwordHash = await hashPassword(input.password);
  const now = nowIso();
  const id = newId('usr');
  const row: UserRow = {
    id,
    owner_id: id,
    email,
    password_hash: passwordHash,
    name,
    language,
    timezone,
    plan: 'seed',
    plan_expires_at: null,
    billing_customer_id: null,
    billing_event_at: null,
    email_verified_at: null,
    created_at: now,
    updated_at: now,
  };
  const inserted = await deps.db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    throw new DomainError('conflict', 'An account with this email already exists.', [
      { path: '/email', message: 'is taken', reason: 'email_in_use' },
    ]);
  }
  // Invitations sent to this email wait: registering proves nothing about the address, so they
  // bind when it is verified (CONTRACT §19), or are taken with their own link.
  return row;
}

/**
 * Checks a password: the one sign-in check of every door (REST, the OAuth /login page). Every
 * failure looks the same (401, same work done) and the limits of `withLoginLimits` apply.
 * @throws validation_failed, unauthenticated, rate_limited
 */
export async function verifyLogin(
  deps: Deps,
  input: { email: string; password: string },
  address: string,
): Promise<UserRow> {
  const email = normalizeEmail('/email', input.email);
  checkPassword(input.password);
  const row = await withLoginLimits(deps, email, address, async () => {
    const found = await findUserByEmail(deps, email);
    const ok = await verifyPassword(found?.password_hash ?? (await dummyPasswordHash()), input.password);
    return found !== null && ok ? found : null;
  });
  if (row === null) throw new DomainError('unauthenticated', 'The email or password is not correct.');
  return row;
}

export async function findUserByEmail(deps: Deps, email: string): Promise<UserRow | null> {
  const row = await deps.db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** @throws not_found */
export async function getUserByEmail(deps: Deps, email: string): Promise<UserRow> {
  const row = await findUserByEmail(deps, email);
  if (row === null) throw notFound('user');
  return row;
}

export async function getUser(deps: Deps, id: string): Promise<UserRow> {
  const row = await deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound('user');
  return row;
}

export interface ProfilePatch {
  name?: string;
  language?: string;
  timezone?: string;
}

/** @throws validation_failed */
export async function updateProfile(deps: Deps, actor: Actor, patch: ProfilePatch): Promise<UserRow> {
  const changes: Partial<UserRow> = {};
  if (patch.name !== undefined) {
    checkLength('/name', patch.name, 0, PROFILE_NAME_MAX);
    changes.name = patch.name;
  }
  if (patch.language !== undefined) {
    checkEnum('/language', patch.language, languages);
    changes.language = patch.language;
  }
  if (patch.timezone !== undefined) changes.timezone = canonicalTimeZone('/timezone', patch.timezone);
  if (Object.keys(changes).length > 0) {
    await deps.db
      .updateTable('users')
      .set({ ...changes, updated_at: nowIso() })
      .where('id', '=', actor.user.id)
      .execute();
    deps.credentials.forgetUser(actor.user.id);
  }
  return getUser(deps, actor.user.id);
}

/**
 * Sets a plan (the CLI today, verified billing webhooks later). `until` null means no expiry.
 * @throws not_found, validation_failed
 */
export async function setUserPlan(deps: Deps, email: string, plan: PlanName, until: string | null): Promise<UserRow> {
  if (until !== null && Number.isNaN(Date.parse(until))) throw invalid('/until', 'must be an ISO 8601 timestamp');
  const user = await getUserByEmail(deps, email);
  await deps.db
    .updateTable('users')
    .set({ plan, plan_expires_at: until === null ? null : new Date(until).toISOString(), updated_at: nowIso() })
    .where('id', '=', user.id)
    .execute();
  deps.credentials.forgetUser(user.id);
  return getUser(deps, user.id);
}
