import type { Actor, Scope } from '../domain/actor.js';
import type { IdempotencyState } from './idempotency.js';

/**
 * Who may call a route. `user`: any credential of a signed-in user (token, OAuth, session);
 * `session`: a browser session only, signed in or not (register, login); `session-user`: a
 * signed-in browser session only (token management, profile). `token`: a Bearer token only (MCP).
 * `anyone`: no credential needed.
 */
export interface RouteAccess {
  who: 'anyone' | 'user' | 'session' | 'session-user' | 'token';
  /** Scopes a token must hold. */
  scopes: readonly Scope[];
  /** A data write: refused for API credentials on a read-only plan. */
  write: boolean;
}

export const access = {
  anyone: { who: 'anyone', scopes: [], write: false } as RouteAccess,
  read: (...extra: Scope[]): RouteAccess => ({ who: 'user', scopes: ['read', ...extra], write: false }),
  write: (...extra: Scope[]): RouteAccess => ({ who: 'user', scopes: ['write', ...extra], write: true }),
  session: { who: 'session', scopes: [], write: false } as RouteAccess,
  sessionUser: { who: 'session-user', scopes: [], write: false } as RouteAccess,
  token: { who: 'token', scopes: [], write: false } as RouteAccess,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** `allow` (default for writes): Idempotency-Key replays; `reject`: 400 before any work; `ignore`: not used. */
    idempotency?: 'allow' | 'reject' | 'ignore';
    /** Service endpoints (health, docs) are not counted against rate limits. */
    rateLimit?: boolean;
    /**
     * The request body as the OpenAPI document shows it, for routes that read their body
     * themselves (multipart uploads) and so cannot give Fastify a body schema to validate.
     */
    documentedBody?: unknown;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /** The browser session id from the cookie (signed in or anonymous), when the cookie decided. */
    sessionId: string | null;
    credential: 'bearer' | 'cookie' | null;
    idempotency: IdempotencyState | null;
  }
}
