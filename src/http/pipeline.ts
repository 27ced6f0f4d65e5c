import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { isApiCall, requireCapability } from '../domain/actor.js';
import { DomainError, invalid } from '../domain/errors.js';
import { checkCsrf } from '../domain/accounts/sessions.js';
import { MINUTE_MS, type RateLimitResult } from '../domain/rate-limit.js';
import { sha256 } from '../domain/crypto.js';
import { ID_MAX } from '../domain/fields.js';
import { resolveCachedToken, resolveCredentials } from './credentials.js';
import { access as accessOf, type RouteAccess } from './access.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafe(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/** A request header's first value. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The one pipeline every API route passes before validation and work, in CONTRACT §12's order:
 * authentication -> CSRF -> account guard -> rate limit -> scope -> plan.
 *
 * A callback hook: a personal token used within the last second, counted by the in-process
 * limiter, passes with no promise at all (most agent calls); anything else waits where it must.
 */
export function makePipeline(deps: Deps) {
  // Without kept lookups (PostgreSQL) the quick path would only hash each token twice.
  const consumeNow = deps.credentials.keeps ? deps.limiter.consumeNow?.bind(deps.limiter) : undefined;
  return function pipeline(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    const config = request.routeConfig;
    const access: RouteAccess = config.access ?? accessOf.anyone;
    if (consumeNow === undefined || !resolveCachedToken(deps, request)) {
      waitingPipeline(deps, request, reply, access).then(() => done(), done);
      return;
    }
    try {
      checkBeforeLimit(deps, request, access);
      if (config.rateLimit !== false)
        applyLimit(reply, consumeNow(rateLimitKey(request), deps.config.rateLimitPerMinute, MINUTE_MS));
      checkAfterLimit(request, access);
    } catch (err) {
      return done(err as Error);
    }
    done();
  };
}

async function waitingPipeline(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  access: RouteAccess,
): Promise<void> {
  await resolveCredentials(deps, request);
  checkBeforeLimit(deps, request, access);
  if (request.routeConfig.rateLimit !== false) {
    applyLimit(reply, await deps.limiter.consume(rateLimitKey(request), deps.config.rateLimitPerMinute, MINUTE_MS));
  }
  checkAfterLimit(request, access);
}

/** The steps between authentication and the rate limit: credential kind, CSRF, account guard. */
function checkBeforeLimit(deps: Deps, request: FastifyRequest, access: RouteAccess): void {
  authorizeCredential(request, access);
  if (request.credential === 'cookie' && !isSafe(request.method)) {
    if (!checkCsrf(deps.config.secret, request.sessionId!, header(request, 'x-csrf-token'))) {
      throw new DomainError(
        'csrf_failed',
        'This browser request needs a valid X-CSRF-Token header (from GET /api/v1/auth/me).',
      );
    }
  }
  checkAccountGuard(request, request.routeConfig.idempotency);
}

/** The steps after the rate limit: the token's scope and the plan, then a refused Idempotency-Key. */
function checkAfterLimit(request: FastifyRequest, access: RouteAccess): void {
  const actor = request.actor;
  if (actor !== null && access.capability !== null) requireCapability(actor, access.capability);
  if (request.routeConfig.idempotency === 'reject' && header(request, 'idempotency-key') !== undefined) {
    throw new DomainError('idempotency_key_not_allowed', 'Idempotency-Key is not accepted here; nothing was created.');
  }
}

function authorizeCredential(request: FastifyRequest, access: RouteAccess): void {
  const sessionOnly = access.who === 'session' || access.who === 'session-user';
  if (sessionOnly && request.credential === 'bearer') {
    throw new DomainError(
      'session_required',
      'This endpoint needs a browser session; Bearer tokens do not authorize it.',
    );
  }
  if (access.who === 'token' && request.credential !== 'bearer') {
    throw new DomainError('unauthenticated', 'Send a personal token as a Bearer token.');
  }
  if ((access.who === 'user' || access.who === 'session-user') && request.actor === null) {
    throw new DomainError('unauthenticated', 'Sign in or send a Bearer token.');
  }
  if (access.who === 'session' && request.credential !== 'cookie' && !isSafe(request.method)) {
    throw new DomainError(
      'csrf_failed',
      'This endpoint needs the session cookie and X-CSRF-Token (from GET /api/v1/auth/me).',
    );
  }
}

/** X-Service-User guards against acting on the wrong account; it is checked before any data access. */
function checkAccountGuard(request: FastifyRequest, idempotency: string | undefined): void {
  const guard = header(request, 'x-service-user');
  if (guard !== undefined) {
    if (guard.length > ID_MAX) throw invalid('/x-service-user', `must be at most ${ID_MAX} characters`);
    if (request.actor === null || request.actor.user.id !== guard) {
      throw new DomainError('account_mismatch', 'X-Service-User does not match the signed-in account.');
    }
  } else if (
    request.credential === 'cookie' &&
    !isSafe(request.method) &&
    idempotency !== 'ignore' &&
    idempotency !== 'reject' &&
    header(request, 'idempotency-key') !== undefined
  ) {
    throw new DomainError(
      'account_guard_required',
      'A browser write with Idempotency-Key must also send X-Service-User.',
    );
  }
}

/**
 * The budget is per token (or grant), per signed-in session, or per address for anonymous callers.
 * A credential's key is its id (`pat_…`, `oag_…`: never a colon, unlike the other keys), the very
 * string of the cached lookup, so the limiter finds it without building and hashing a new one.
 */
function rateLimitKey(request: FastifyRequest): string {
  const actor = request.actor;
  if (actor !== null && isApiCall(actor) && actor.credentialId !== null) return actor.credentialId;
  if (actor !== null && request.sessionId !== null) return `ses:${sha256(request.sessionId)}`;
  return `ip:${request.ip}`;
}

/**
 * The RateLimit headers of every counted answer; past the limit, 429 with Retry-After. Names are
 * given in lower case, as Fastify keeps and sends them: it lowercases each name it is given, and
 * a name already in lower case costs it no new string on every request.
 */
function applyLimit(reply: FastifyReply, result: RateLimitResult): void {
  reply.header('ratelimit-limit', result.limit);
  reply.header('ratelimit-remaining', result.remaining);
  reply.header('ratelimit-reset', result.resetSeconds);
  if (!result.allowed) {
    reply.header('retry-after', result.resetSeconds);
    throw new DomainError(
      'rate_limited',
      `Rate limit of ${result.limit} requests per minute exceeded; retry after ${result.resetSeconds} s.`,
    );
  }
}

/** How many of the further units asked of `countMore` were allowed, and the refusal of the rest (null when all were). */
export interface Admission {
  allowed: number;
  refusal: DomainError | null;
}

/**
 * Counts `count` more units against this request's budget, one at a time by the same limiter,
 * as if each came in a request of its own: the messages of a JSON-RPC batch after the first,
 * which the pipeline counted with the request (CONTRACT §19). It stops at the first unit over
 * the limit, so none past it is counted; the RateLimit headers (and Retry-After) then tell the
 * budget after the last decision. Only batches of the old MCP revisions come here, at most 100
 * messages, so one limiter call per message costs nothing anyone else pays.
 */
export async function countMore(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  count: number,
): Promise<Admission> {
  if (request.routeConfig.rateLimit === false) return { allowed: count, refusal: null };
  for (let allowed = 0; allowed < count; allowed++) {
    try {
      applyLimit(reply, await deps.limiter.consume(rateLimitKey(request), deps.config.rateLimitPerMinute, MINUTE_MS));
    } catch (err) {
      if (err instanceof DomainError) return { allowed, refusal: err };
      throw err;
    }
  }
  return { allowed: count, refusal: null };
}
