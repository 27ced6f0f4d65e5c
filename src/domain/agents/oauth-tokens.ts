import type { Deps } from '../deps.js';
import { randomSecret, sha256 } from '../crypto.js';
import { nowIso } from '../ids.js';
import type { Db, Trx } from '../../store/db.js';
import { parseScopes } from './tokens.js';
import { findClient, touchClient } from './oauth-clients.js';
import { ACCESS_TTL_SECONDS, REFRESH_TTL_MS, revokeGrant } from './oauth-grants.js';
import { OAuthError } from './oauth-errors.js';
import { writeOutsideTrees } from '../write.js';

export type Form = Record<string, string | undefined>;

/** RFC 6749 §5.1. */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const REFRESH_TOKEN = /^ttr_[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function required(form: Form, name: string): string {
  const value = form[name];
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `${name} is required.`);
  return value;
}

/**
 * RFC 6749 §5.2: a client_id we do not know (never registered, or removed after 30 days unused)
 * is invalid_client (401), told apart from a bad grant so the client knows to register again.
 */
async function requireClient(deps: Deps, clientId: string): Promise<void> {
  if ((await findClient(deps, clientId)) === null) {
    throw new OAuthError(
      'invalid_client',
      'Unknown client_id: register the client again (clients unused for 30 days are removed).',
    );
  }
}

interface GrantRow {
  id: string;
  client_id: string;
  scopes: string;
  resource: string;
  revoked_at: string | null;
}

async function grantOf(db: Db, grantId: string): Promise<GrantRow> {
  return db
    .selectFrom('oauth_grants')
    .select(['id', 'client_id', 'scopes', 'resource', 'revoked_at'])
    .where('id', '=', grantId)
    .executeTakeFirstOrThrow();
}

async function issueTokens(trx: Trx, grant: GrantRow): Promise<TokenAnswer> {
  const access = `tto_${randomSecret(32)}`;
  const refresh = `ttr_${randomSecret(32)}`;
  const now = Date.now();
  const created = new Date(now).toISOString();
  await trx
    .insertInto('oauth_tokens')
    .values([
      {
        token_hash: sha256(access),
        grant_id: grant.id,
        kind: 'access',
        created_at: created,
        expires_at: new Date(now + ACCESS_TTL_SECONDS * 1000).toISOString(),
        used_at: null,
        revoked_at: null,
      },
      {
        token_hash: sha256(refresh),
        grant_id: grant.id,
        kind: 'refresh',
        created_at: created,
        expires_at: new Date(now + REFRESH_TTL_MS).toISOString(),
        used_at: null,
        revoked_at: null,
      },
    ])
    .execute();
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_SECONDS,
    refresh_token: refresh,
    scope: parseScopes(grant.scopes).join(' '),
  };
}

/**
 * A spent code or refresh token presented again means one of two parties holds a stolen copy:
 * the whole grant ends (tokens, MCP sessions), committed before the client hears invalid_grant.
 */
async function replayed(deps: Deps, grantId: string, what: string): Promise<never> {
  await writeOutsideTrees(deps, ({ trx }) => revokeGrant(trx, grantId));
  throw new OAuthError('invalid_grant', `This ${what} was already used; the connection has been revoked.`);
}

/**
 * grant_type=authorization_code: the code once, within 60 s, by the client it was issued to,
 * with the same redirect URI and resource, and the PKCE verifier of its S256 challenge.
 * @throws OAuthError invalid_request, invalid_client, invalid_grant, invalid_target
 */
export async function exchangeCode(deps: Deps, form: Form): Promise<TokenAnswer> {
  const code = required(form, 'code');
  const clientId = required(form, 'client_id');
  const redirectUri = required(form, 'redirect_uri');
  const verifier = required(form, 'code_verifier');
  // Before the code is spent: an unknown client cannot burn someone else's code.
  await requireClient(deps, clientId);
  const hash = sha256(code);
  const now = nowIso();
  const spent = await deps.db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning(['grant_id', 'redirect_uri', 'code_challenge', 'expires_at'])
    .executeTakeFirst();
  if (spent === undefined) {
    const used = await deps.db
      .selectFrom('oauth_codes')
      .select('grant_id')
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    if (used !== undefined) return replayed(deps, used.grant_id, 'authorization code');
    throw new OAuthError('invalid_grant', 'The authorization code is unknown.');
  }
  return writeOutsideTrees(deps, async ({ trx }) => {
    const grant = await grantOf(trx, spent.grant_id);
    if (grant.revoked_at !== null || spent.expires_at <= now)
      throw new OAuthError('invalid_grant', 'The authorization code has expired.');
    if (grant.client_id !== clientId)
      throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
    if (spent.redirect_uri !== redirectUri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
    if (form.resource !== undefined && form.resource !== grant.resource)
      throw new OAuthError('invalid_target', 'resource differs from the one of the authorization request.');
    if (!VERIFIER.test(verifier) || sha256(verifier) !== spent.code_challenge)
      throw new OAuthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    // Inside the transaction: SQLite has one connection, and it is ours until commit.
    await touchClient(trx, clientId, now);
    return issueTokens(trx, grant);
  });
}

/**
 * grant_type=refresh_token: rotation on every use; a spent refresh token revokes the grant.
 * @throws OAuthError invalid_request, invalid_client, invalid_grant, invalid_target, invalid_scope
 */
export async function refreshTokens(deps: Deps, form: Form): Promise<TokenAnswer> {
  const value = required(form, 'refresh_token');
  const clientId = required(form, 'client_id');
  await requireClient(deps, clientId);
  if (!REFRESH_TOKEN.test(value)) throw new OAuthError('invalid_grant', 'The refresh token is unknown.');
  const hash = sha256(value);
  const now = nowIso();
  const row = await deps.db
    .selectFrom('oauth_tokens')
    .select(['grant_id', 'expires_at', 'used_at', 'revoked_at'])
    .where('token_hash', '=', hash)
    .where('kind', '=', 'refresh')
    .executeTakeFirst();
  if (row === undefined) throw new OAuthError('invalid_grant', 'The refresh token is unknown.');
  const grant = await grantOf(deps.db, row.grant_id);
  // Only the client it was issued to may spend it (or trip its reuse detection).
  if (grant.client_id !== clientId)
    throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
  if (row.used_at !== null) return replayed(deps, grant.id, 'refresh token');
  if (row.revoked_at !== null || grant.revoked_at !== null || row.expires_at <= now)
    throw new OAuthError('invalid_grant', 'The refresh token has expired or was revoked.');
  if (form.resource !== undefined && form.resource !== grant.resource)
    throw new OAuthError('invalid_target', 'resource differs from the one this connection was granted for.');
  if (form.scope !== undefined) {
    const held = parseScopes(grant.scopes);
    if (form.scope.split(' ').some((s) => s !== '' && !(held as string[]).includes(s)))
      throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes.');
  }
  const answer = await writeOutsideTrees(deps, async ({ trx }) => {
    // The conditional update is the rotation: of two racing uses, one spends it and the other is a reuse.
    const spent = await trx
      .updateTable('oauth_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('grant_id')
      .executeTakeFirst();
    if (spent === undefined) return null;
    return issueTokens(trx, grant);
  });
  if (answer === null) return replayed(deps, grant.id, 'refresh token');
  await touchClient(deps.db, clientId, now);
  return answer;
}

/**
 * RFC 7009: an access token ends alone; a refresh token ends its grant. Unknown tokens, and
 * tokens of another client, answer the same success and change nothing; `token_type_hint` is
 * only a hint (§2.1: an unknown value is ignored), since both kinds are looked up at once.
 * A public client may leave client_id out; one it names must exist.
 * @throws OAuthError invalid_request, invalid_client
 */
export async function revokeOAuthToken(deps: Deps, form: Form): Promise<void> {
  const value = required(form, 'token');
  if (form.client_id !== undefined) await requireClient(deps, form.client_id);
  const row = await deps.db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select(['t.kind', 't.grant_id', 'g.client_id'])
    .where('t.token_hash', '=', sha256(value))
    .executeTakeFirst();
  if (row === undefined || (form.client_id !== undefined && form.client_id !== row.client_id)) return;
  if (row.kind === 'refresh') {
    await writeOutsideTrees(deps, ({ trx }) => revokeGrant(trx, row.grant_id));
    return;
  }
  await deps.db
    .updateTable('oauth_tokens')
    .set({ revoked_at: nowIso() })
    .where('token_hash', '=', sha256(value))
    .execute();
}
