import { capabilityNeeds, type Actor, type Capability, type Scope } from '../domain/actor.js';
import type { FastifyRouteConfig } from 'fastify/types/route.js';

/**
 * Who may call a route. `user`: any credential of a signed-in user (token, OAuth, session);
 * `session`: a browser session only, signed in or not (register, login); `session-user`: a
 * signed-in browser session only (token management, profile). `token`: a Bearer token only (MCP).
 * `anyone`: no credential needed.
 */
export interface RouteAccess {
  who: 'anyone' | 'user' | 'session' | 'session-user' | 'token';
  /** For `user` routes: the domain capability the route offers, whose needs the pipeline checks. */
  capability: Capability | null;
  /** Scopes a token must hold (the capability's, for the OpenAPI document). */
  scopes: readonly Scope[];
  /** A data write: refused for API credentials on a read-only plan. */
  write: boolean;
}

/** A route any signed-in credential may call when it holds the capability (the domain's table decides what that needs). */
function user(capability: Capability): RouteAccess {
  const needs = capabilityNeeds[capability];
  return { who: 'user', capability, scopes: needs.scopes, write: needs.write };
}

function only(who: RouteAccess['who']): RouteAccess {
  return { who, capability: null, scopes: [], write: false };
}

export const access = {
  anyone: only('anyone'),
  to: user,
  read: () => user('read'),
  write: () => user('write'),
  session: only('session'),
  sessionUser: only('session-user'),
  token: only('token'),
};

/** The Idempotency-Key a request has claimed, for the recorder to keep or free once it is answered. */
export interface IdempotencyState {
  ownerId: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** `allow` (default for writes): Idempotency-Key replays; `reject`: 400 before any work; `ignore`: not used. */
    idempotency?: 'allow' | 'reject' | 'ignore';
    /**
     * A write that answers one tree, project or task with that record's ETag (CONTRACT §16.2),
     * for the OpenAPI document.
     */
    recordETag?: boolean;
    /** Service endpoints (health, docs) are not counted against rate limits. */
    rateLimit?: boolean;
    /**
     * The request body as the OpenAPI document shows it, for routes that read their body
     * themselves (multipart uploads) and so cannot give Fastify a body schema to validate.
     */
    documentedBody?: unknown;
  }
  interface FastifyRequest {
    /**
     * The route's config (with its `url` template and `method`), read once per request in the
     * first hook: Fastify's `request.routeOptions` builds a new object on every access.
     */
    routeConfig: FastifyContextConfig & FastifyRouteConfig;
    actor: Actor | null;
    /** The browser session id from the cookie (signed in or anonymous), when the cookie decided. */
    sessionId: string | null;
    credential: 'bearer' | 'cookie' | null;
    /** The OAuth client's registered name, for the journal's `client`; null for other credentials. */
    credentialClient: string | null;
    idempotency: IdempotencyState | null;
  }
}
