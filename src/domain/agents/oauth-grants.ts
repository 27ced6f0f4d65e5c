import type { Deps } from '../deps.js';
import { userActor, type Actor, type Scope } from '../actor.js';
import { checkTreeIds, parseTreeIds, requireVisibleTrees, storedTreeIds, treeScopeOf } from './credential-trees.js';
import type { UserRow } from '../../store/rows.js';
import { randomSecret, sha256 } from '../crypto.js';
import { newId, nowIso } from '../ids.js';
import { notFound } from '../errors.js';
import type { Db, Trx } from '../../store/db.js';
import { endMcpSessionsOf } from './mcp-sessions.js';
import { parseScopes } from './tokens.js';
import { touchClient } from './oauth-clients.js';
import { scopesToGrant, type AuthorizationRequest } from './oauth-authorize.js';
import type { Static } from '@sinclair/typebox';
import type { OAuthConnection } from '../schemas/agents.js';
import { writeOutsideTrees } from '../write.js';

export const CODE_TTL_MS = 60_000;
export const ACCESS_TTL_SECONDS = 3_600;
export const REFRESH_TTL_MS = 30 * 86_400_000;
export const ACCESS_TOKEN = /^tto_[A-Za-z0-9_-]{43}$/;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Consent given: a new grant (one connection) and its authorization code, single use for 60 s,
 * bound to the client, redirect URI, resource and PKCE challenge. On Seed `write` is dropped.
 *
 * `treeIds` is the choice of trees on the consent page (null: all trees; CONTRACT §16.1), each
 * one the user can see now. It is the user's latest word for this client at this resource: the
 * user's other live grants to it take the same choice in the same transaction, so a narrowed
 * choice holds from the next request of any of the client's tokens (grants are read on every
 * request, never cached).
 * @throws validation_failed, not_found (a tree the user cannot see; nothing is granted)
 */
export async function approveAuthorization(
  deps: Deps,
  user: UserRow,
  plan: Actor['plan'],
  request: AuthorizationRequest,
  treeIds: string[] | null = null,
): Promise<{ code: string; grantId: string; scopes: Scope[] }> {
  const { granted } = scopesToGrant(request.scopes, plan);
  const trees = checkTreeIds('/tree_ids', treeIds);
  await requireVisibleTrees(deps.db, userActor(user, 'session'), trees);
  const code = `ttc_${randomSecret(32)}`;
  const now = new Date();
  const grantId = newId('oag', now.getTime());
  await writeOutsideTrees(deps, async ({ trx }) => {
    await trx
      .updateTable('oauth_grants')
      .set({ tree_ids: storedTreeIds(trees) })
      .where('owner_id', '=', user.id)
      .where('client_id', '=', request.client.id)
      .where('resource', '=', request.resource)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .insertInto('oauth_grants')
      .values({
        id: grantId,
        owner_id: user.id,
        client_id: request.client.id,
        scopes: granted.join(' '),
        resource: request.resource,
        created_at: now.toISOString(),
        last_used_at: null,
        revoked_at: null,
        tree_ids: storedTreeIds(trees),
      })
      .execute();
    await trx
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        grant_id: grantId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
  });
  return { code, grantId, scopes: granted };
}

/** Ends a grant: its tokens, its codes' future, and every MCP session it opened. */
export async function revokeGrant(db: Db | Trx, grantId: string): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: now })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
  await endMcpSessionsOf(db, [grantId]);
}

/** A password reset ends every grant of the account. */
export async function revokeAllGrants(db: Db | Trx, userId: string): Promise<void> {
  const rows = await db
    .selectFrom('oauth_grants')
    .select('id')
    .where('owner_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  for (const row of rows) await revokeGrant(db, row.id);
}

export type Connection = Static<typeof OAuthConnection>;

/** The signed-in user's live grants, newest first. */
export async function listConnections(deps: Deps, actor: Actor): Promise<Connection[]> {
  const rows = await deps.db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select([
      'g.id',
      'g.client_id',
      'c.client_name',
      'g.scopes',
      'g.resource',
      'g.created_at',
      'g.last_used_at',
      'g.tree_ids',
    ])
    .where('g.owner_id', '=', actor.user.id)
    .where('g.revoked_at', 'is', null)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, scopes: parseScopes(r.scopes), tree_ids: parseTreeIds(r.tree_ids) }));
}

/** @throws not_found (unknown, foreign or already revoked) */
export async function revokeConnection(deps: Deps, actor: Actor, id: string): Promise<void> {
  const found = await deps.db
    .selectFrom('oauth_grants')
    .select('id')
    .where('id', '=', id)
    .where('owner_id', '=', actor.user.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (found === undefined) throw notFound('connection');
  await writeOutsideTrees(deps, ({ trx }) => revokeGrant(trx, id));
}

export interface OAuthCaller {
  grantId: string;
  user: UserRow;
  scopes: ReadonlySet<Scope>;
  /** The grant's trees as they are now (CONTRACT §16.1); null: every tree. */
  trees: ReadonlySet<string> | null;
  clientName: string;
}

/**
 * The live access token's grant and user, when it was issued for this very resource; null for
 * anything else (unknown, expired, revoked, or a token of the other resource).
 */
export async function authenticateAccessToken(
  deps: Deps,
  value: string,
  resource: string,
): Promise<OAuthCaller | null> {
  if (!ACCESS_TOKEN.test(value)) return null;
  const now = nowIso();
  const row = await deps.db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .innerJoin('users as u', 'u.id', 'g.owner_id')
    .selectAll('u')
    .select([
      'g.id as g_id',
      'g.scopes as g_scopes',
      'g.resource as g_resource',
      'g.last_used_at as g_last_used_at',
      'g.tree_ids as g_tree_ids',
      'c.id as c_id',
      'c.client_name as c_name',
    ])
    .where('t.token_hash', '=', sha256(value))
    .where('t.kind', '=', 'access')
    .where('t.revoked_at', 'is', null)
    .where('g.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
  if (row === undefined || row.g_resource !== resource) return null;
  const { g_id, g_scopes, g_resource: _resource, g_last_used_at, g_tree_ids, c_id, c_name, ...user } = row;
  if (g_last_used_at === null || Date.parse(now) - Date.parse(g_last_used_at) >= LAST_USED_RESOLUTION_MS) {
    await deps.db.updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', g_id).execute();
    await touchClient(deps.db, c_id, now);
  }
  return {
    grantId: g_id,
    user,
    scopes: new Set(parseScopes(g_scopes)),
    trees: treeScopeOf(g_tree_ids),
    clientName: c_name,
  };
}
