import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { OAuthClientTable } from '../../store/schema.js';
import { newId, nowIso } from '../ids.js';
import type { Db } from '../../store/db.js';
import { OAuthError } from './oauth-errors.js';

export type ClientRow = Selectable<OAuthClientTable>;

/** Registered clients nobody has used for this long are removed (CONTRACT §13). */
export const CLIENT_UNUSED_DAYS = 30;
/**
 * A registration document is at most this long (CONTRACT §19): what we keep of one is a few
 * hundred bytes, and 60 registrations a minute per address are kept for 30 days.
 */
export const REGISTRATION_MAX_BYTES = 16 * 1024;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2_000;
const CLIENT_NAME_MAX = 120;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** https anywhere, or http on a loopback host (RFC 8252 §7.3); never a fragment or credentials. */
function checkRedirectUri(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_URI_LENGTH)
    throw new OAuthError('invalid_redirect_uri', 'Each redirect URI must be a string of at most 2000 characters.');
  const url = URL.parse(value);
  if (url === null) throw new OAuthError('invalid_redirect_uri', 'A redirect URI is not an absolute URL.');
  if (url.hash !== '' || value.includes('#'))
    throw new OAuthError('invalid_redirect_uri', 'A redirect URI must not have a fragment.');
  if (url.username !== '' || url.password !== '')
    throw new OAuthError('invalid_redirect_uri', 'A redirect URI must not carry credentials.');
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw new OAuthError(
      'invalid_redirect_uri',
      'Redirect URIs must use https, or http on 127.0.0.1, [::1] or localhost.',
    );
  }
  return value;
}

function optionalList(metadata: Record<string, unknown>, name: string, allowed: string[]): string[] | undefined {
  const value = metadata[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !allowed.includes(v))) {
    throw new OAuthError('invalid_client_metadata', `${name} may only hold ${allowed.join(', ')}.`);
  }
  return value as string[];
}

/**
 * RFC 7591 registration of a public client. Only `token_endpoint_auth_method: none`; `openid` and
 * URL client ids are refused. Members we do not use are ignored: neither stored nor answered
 * (RFC 7591 §3.2.1 answers the metadata as registered), so a registration keeps only what we read.
 * @throws OAuthError invalid_client_metadata, invalid_redirect_uri, invalid_scope
 */
export async function registerClient(deps: Deps, metadata: unknown): Promise<Record<string, unknown>> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new OAuthError('invalid_client_metadata', 'The registration document must be a JSON object.');
  }
  const doc = metadata as Record<string, unknown>;
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new OAuthError(
      'invalid_client_metadata',
      'Only public clients may register: token_endpoint_auth_method must be none.',
    );
  if (doc.client_id !== undefined || doc.client_secret !== undefined) {
    throw new OAuthError(
      'invalid_client_metadata',
      'client_id and client_secret are assigned here, never sent; Client ID Metadata Documents are not supported.',
    );
  }
  if (typeof doc.scope === 'string' && doc.scope.split(' ').includes('openid')) {
    throw new OAuthError('invalid_scope', 'OpenID Connect is not supported: the openid scope is refused.');
  }
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs.`);
  }
  const redirectUris = uris.map(checkRedirectUri);
  const grantTypes = optionalList(doc, 'grant_types', GRANT_TYPES) ?? GRANT_TYPES;
  const responseTypes = optionalList(doc, 'response_types', ['code']) ?? ['code'];
  const name = doc.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > CLIENT_NAME_MAX)) {
    throw new OAuthError('invalid_client_metadata', `client_name must be 1 to ${CLIENT_NAME_MAX} characters.`);
  }
  const now = new Date();
  const answer = {
    client_id: newId('oac', now.getTime()),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name ?? 'Unnamed client',
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes,
    response_types: responseTypes,
  };
  await removeUnusedClients(deps, now);
  await deps.db
    .insertInto('oauth_clients')
    .values({
      id: answer.client_id,
      client_name: answer.client_name,
      redirect_uris: JSON.stringify(redirectUris),
      metadata: JSON.stringify(answer),
      created_at: now.toISOString(),
      last_used_at: now.toISOString(),
    })
    .execute();
  return answer;
}

/**
 * Clients unused for 30 days go, with their (long dead) grants. Run at every registration (so a
 * registration flood cannot outgrow it) and by the hourly OAuth sweep (oauth-sweep.ts).
 */
export async function removeUnusedClients(deps: Deps, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - CLIENT_UNUSED_DAYS * 86_400_000).toISOString();
  const removed = await deps.db.deleteFrom('oauth_clients').where('last_used_at', '<', before).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

export async function findClient(deps: Deps, clientId: string): Promise<ClientRow | null> {
  if (clientId.length > 160) return null;
  return (await deps.db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst()) ?? null;
}

/** Exact match, except that a loopback http URI matches on any port (RFC 8252 §7.3). */
export function redirectAllowed(client: ClientRow, value: string): boolean {
  const registered = JSON.parse(client.redirect_uris) as string[];
  if (registered.includes(value)) return true;
  const asked = URL.parse(value);
  if (asked === null || !isLoopbackHttp(asked) || value.includes('#')) return false;
  asked.port = '';
  return registered.some((uri) => {
    const known = URL.parse(uri);
    if (known === null || !isLoopbackHttp(known)) return false;
    known.port = '';
    return known.href === asked.href;
  });
}

/** A client is "used" whenever one of its tokens is issued or used (grant use is recorded once a minute). */
export async function touchClient(db: Db, clientId: string, now = nowIso()): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: now }).where('id', '=', clientId).execute();
}
