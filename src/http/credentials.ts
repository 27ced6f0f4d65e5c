import type { FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { userActor, type Actor } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';
import { effectivePlan } from '../domain/plans.js';
import { authenticateToken, touchToken } from '../domain/agents/tokens.js';
import { isSessionId, sessionUser } from '../domain/accounts/sessions.js';
import type { UserRow } from '../domain/accounts/accounts.js';
import { warnWith } from './logger.js';

export const SESSION_COOKIE = 'tt_session';
const BEARER = /^Bearer +([^\s]+) *$/i;

export function actorForSession(user: UserRow): Actor {
  return userActor(user, 'session');
}

/**
 * Turns the request's credential into an Actor. A Bearer token decides over a cookie.
 * A bad Bearer token is 401 even where no credential is needed: the client must learn it is broken.
 */
export async function resolveCredentials(deps: Deps, request: FastifyRequest): Promise<void> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const value = BEARER.exec(authorization)?.[1];
    const found = value === undefined ? null : await authenticateToken(deps, value);
    if (found === null) throw new DomainError('unauthenticated', 'The Bearer token is missing, unknown, expired or revoked.');
    request.credential = 'bearer';
    request.actor = {
      user: found.user,
      via: 'token',
      credentialId: found.token.id,
      scopes: found.scopes,
      plan: effectivePlan(found.user.plan, found.user.plan_expires_at),
    };
    touchToken(deps, found.token)?.catch(warnWith(request.log, 'could not record token use'));
    return;
  }
  const header = request.headers.cookie;
  const cookie = header === undefined ? undefined : request.server.parseCookie(header)[SESSION_COOKIE];
  if (isSessionId(cookie)) {
    request.credential = 'cookie';
    request.sessionId = cookie;
    const user = await sessionUser(deps, cookie);
    if (user !== null) request.actor = actorForSession(user);
  }
}
