import type { Deps } from '../deps.js';
import { hmac, randomSecret, safeEqual, sha256 } from '../crypto.js';
import { nowIso } from '../ids.js';
import type { UserRow } from '../../store/rows.js';

const SESSION_DAYS = 30;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** Is this a cookie value we could have minted? Anything else is treated as no cookie at all. */
export function isSessionId(value: string | undefined): value is string {
  return value !== undefined && SESSION_ID.test(value);
}

export function newSessionId(): string {
  return randomSecret(32);
}

/**
 * The CSRF value is a synchronizer token derived from the session id, so it rotates with the
 * session and needs no storage; only someone who can read the cookie can compute it.
 */
export function csrfFor(secret: string, sessionId: string): string {
  return hmac(secret, `csrf:${sessionId}`);
}

export function checkCsrf(secret: string, sessionId: string, presented: string | undefined): boolean {
  return presented !== undefined && safeEqual(csrfFor(secret, sessionId), presented);
}

/** Starts a signed-in session and returns its id (the cookie value); only its hash is stored. */
export async function startSession(deps: Deps, userId: string): Promise<string> {
  const id = newSessionId();
  const now = new Date();
  await deps.db
    .insertInto('sessions')
    .values({
      id_hash: sha256(id),
      owner_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
    })
    .execute();
  return id;
}

/** The user signed in through this session id, or null for an anonymous, ended or expired one. */
export async function sessionUser(deps: Deps, sessionId: string): Promise<UserRow | null> {
  const row = await deps.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.owner_id')
    .selectAll('users')
    .where('sessions.id_hash', '=', sha256(sessionId))
    .where('sessions.expires_at', '>', nowIso())
    .executeTakeFirst();
  return row ?? null;
}

export async function endSession(deps: Deps, sessionId: string): Promise<void> {
  await deps.db.deleteFrom('sessions').where('id_hash', '=', sha256(sessionId)).execute();
}

/** Retention: expired sessions can never sign anyone in again; their rows go. */
export async function purgeExpiredSessions(deps: Deps, now = new Date()): Promise<number> {
  const result = await deps.db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
