import type { FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { userActor, type Actor } from '../domain/actor.js';
import { newChange } from '../domain/change.js';
import { DomainError } from '../domain/errors.js';
import { effectivePlan } from '../domain/plans.js';
import { authenticateToken, cachedToken, touchToken } from '../domain/agents/tokens.js';
import type { TokenOwner } from '../domain/agents/credential-cache.js';
import { isSessionId, sessionUser } from '../domain/accounts/sessions.js';
import type { UserRow } from '../store/rows.js';
import { warnWith } from './logger.js';
import { authenticateAccessToken } from '../domain/agents/oauth-grants.js';
import { issuerOf, resourceKindOf, resourceUrl } from './oauth/issuer.js';

export const SESSION_COOKIE = 'tt_session';
const BEARER = /^Bearer +([^\s]+) *$/i;

export function actorForSession(user: UserRow): Actor {
  return userActor(user, 'session');
}

/** The Bearer value sent: undefined without an Authorization header, null when it holds no Bearer value. */
function bearerOf(request: FastifyRequest): string | null | undefined {
  const authorization = request.headers.authorization;
  return authorization === undefined ? undefined : (BEARER.exec(authorization)?.[1] ?? null);
}

/**
 * Turns the request's credential into an Actor. A Bearer token decides over a cookie.
 * A bad Bearer token is 401 even where no credential is needed: the client must learn it is broken.
 */
export async function resolveCredentials(deps: Deps, request: FastifyRequest): Promise<void> {
  const value = bearerOf(request);
  if (value !== undefined) {
    if (value?.startsWith('tto_') === true) return resolveOAuth(deps, request, value);
    const found = value === null ? null : await authenticateToken(deps, value);
    if (found === null)
      throw new DomainError('unauthenticated', 'The Bearer token is missing, unknown, expired or revoked.');
    return actAsToken(deps, request, found);
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

/**
 * resolveCredentials without waiting, for the common case of a personal token used within the
 * last second: true when the request now acts as that token's owner; false when only
 * resolveCredentials can tell (no such token cached, another credential, none).
 */
export function resolveCachedToken(deps: Deps, request: FastifyRequest): boolean {
  const value = bearerOf(request);
  if (value === undefined || value === null || value.startsWith('tto_')) return false;
  const found = cachedToken(deps, value);
  if (found === undefined || found === null) return false;
  actAsToken(deps, request, found);
  return true;
}

function actAsToken(deps: Deps, request: FastifyRequest, found: TokenOwner): void {
  request.credential = 'bearer';
  request.actor = {
    user: found.user,
    via: 'token',
    credentialId: found.token.id,
    client: found.token.name,
    change: newChange(),
    scopes: found.scopes,
    plan: effectivePlan(found.user.plan, found.user.plan_expires_at),
    trees: found.trees,
  };
  touchToken(deps, found)?.catch(warnWith(request.log, 'could not record token use'));
}

/**
 * An OAuth access token works only at the resource it was issued for (an /mcp token is 401 at
 * /api/v1 and the reverse). Its grant is the credential: the rate limit, MCP sessions and the
 * journal's token_id are per grant; its scopes meet the plan on every request, as a token's do.
 */
async function resolveOAuth(deps: Deps, request: FastifyRequest, value: string): Promise<void> {
  const kind = resourceKindOf(request.url);
  const found =
    kind === null ? null : await authenticateAccessToken(deps, value, resourceUrl(issuerOf(deps, request), kind));
  if (found === null)
    throw new DomainError(
      'unauthenticated',
      'The OAuth access token is unknown, expired, revoked or for another resource.',
    );
  request.credential = 'bearer';
  request.credentialClient = found.clientName;
  request.actor = {
    user: found.user,
    via: 'oauth',
    credentialId: found.grantId,
    client: found.clientName,
    change: newChange(),
    scopes: found.scopes,
    plan: effectivePlan(found.user.plan, found.user.plan_expires_at),
    trees: found.trees,
  };
}
