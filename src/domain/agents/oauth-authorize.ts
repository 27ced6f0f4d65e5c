import type { Deps } from '../deps.js';
import { grantableScopes, scopeNames, type Scope } from '../actor.js';
import type { PlanName } from '../plans.js';
import { findClient, redirectAllowed, type ClientRow } from './oauth-clients.js';
import type { OAuthErrorCode } from './oauth-errors.js';

/** A checked authorization request: what the consent page shows and the approval binds. */
export interface AuthorizationRequest {
  client: ClientRow;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  /** The scopes asked for; null when omitted (every scope the plan allows). */
  scopes: Scope[] | null;
  resource: string;
}

/** Why a request cannot go back to its client; the page words it in the reader's language. */
export type UntrustedRequest = 'no_client' | 'metadata_document' | 'unknown_client' | 'bad_redirect_uri';

export type AuthorizeCheck =
  | { ok: true; request: AuthorizationRequest }
  /** A client or redirect URI we cannot trust: shown as a page, never redirected (RFC 6749 §4.1.2.1). */
  | { ok: false; page: UntrustedRequest }
  | { ok: false; redirect: { uri: string; error: OAuthErrorCode; description: string; state: string | null } };

export type Params = Record<string, string | string[] | undefined>;

/** An RFC 7636 challenge: base64url of a SHA-256, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function single(params: Params, name: string): string | undefined | null {
  const value = params[name];
  if (Array.isArray(value)) return null;
  return value;
}

/**
 * Checks GET /oauth/authorize (and the consent post, which repeats it) in RFC 6749 order:
 * client and redirect URI first, whose failures must not redirect; then everything else,
 * whose failures go back to the client with `error` and `state`.
 */
export async function checkAuthorizationRequest(
  deps: Deps,
  params: Params,
  resources: readonly string[],
): Promise<AuthorizeCheck> {
  const clientId = single(params, 'client_id');
  if (clientId === undefined || clientId === null || clientId === '') return { ok: false, page: 'no_client' };
  if (/^https?:/i.test(clientId)) return { ok: false, page: 'metadata_document' };
  const client = await findClient(deps, clientId);
  if (client === null) return { ok: false, page: 'unknown_client' };
  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === undefined || redirectUri === null || !redirectAllowed(client, redirectUri)) {
    return { ok: false, page: 'bad_redirect_uri' };
  }
  const stateValue = single(params, 'state');
  const state = typeof stateValue === 'string' ? stateValue : null;
  const fail = (error: OAuthErrorCode, description: string): AuthorizeCheck => ({
    ok: false,
    redirect: { uri: redirectUri, error, description, state },
  });

  for (const name of ['response_type', 'code_challenge', 'code_challenge_method', 'scope', 'resource', 'state']) {
    if (single(params, name) === null) return fail('invalid_request', `${name} is given more than once.`);
  }
  if (single(params, 'response_type') !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const method = single(params, 'code_challenge_method');
  const challenge = single(params, 'code_challenge');
  if (method !== 'S256')
    return fail('invalid_request', 'PKCE is required with code_challenge_method=S256 (plain is refused).');
  if (typeof challenge !== 'string' || !S256_CHALLENGE.test(challenge))
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
  const resource = single(params, 'resource');
  if (typeof resource !== 'string' || resource === '')
    return fail('invalid_target', `resource is required: ${resources.join(' or ')}.`);
  if (!resources.includes(resource))
    return fail('invalid_target', `resource must be exactly ${resources.join(' or ')}.`);
  const scope = single(params, 'scope');
  let scopes: Scope[] | null = null;
  if (typeof scope === 'string' && scope.trim() !== '') {
    const asked = scope.split(' ').filter((s) => s !== '');
    if (asked.includes('openid'))
      return fail('invalid_scope', 'OpenID Connect is not supported: the openid scope is refused.');
    const unknown = asked.filter((s) => !(scopeNames as readonly string[]).includes(s));
    if (unknown.length > 0)
      return fail('invalid_scope', `Unknown scope ${unknown.join(', ')}; use read, write, attachments.`);
    scopes = scopeNames.filter((s) => asked.includes(s));
  }
  return { ok: true, request: { client, redirectUri, codeChallenge: challenge, state, scopes, resource } };
}

/** What consent grants on this plan: the scopes asked for (or all), without `write` on Seed; and what was dropped. */
export function scopesToGrant(asked: Scope[] | null, plan: PlanName): { granted: Scope[]; dropped: Scope[] } {
  const wanted = asked ?? [...scopeNames];
  const allowed = grantableScopes(plan);
  return { granted: wanted.filter((s) => allowed.includes(s)), dropped: wanted.filter((s) => !allowed.includes(s)) };
}
