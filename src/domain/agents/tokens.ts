import type { Deps } from '../deps.js';
import type { TokenRow, UserRow } from '../../store/rows.js';
import type { Actor, Scope } from '../actor.js';
import { grantableScopes, scopeNames } from '../actor.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import type { PlanName } from '../plans.js';
import { randomSecret, sha256 } from '../crypto.js';
import { checkLength } from '../validate.js';
import { TOKEN_NAME_MAX } from '../fields.js';
import type { Db, Trx } from '../../store/db.js';
import { lockOwner } from '../../store/locks.js';
import { findTokenWithOwner } from '../../store/credentials.js';
import { endMcpSessionsOf } from './mcp-sessions.js';
import type { TokenOwner } from './credential-cache.js';
import { checkTreeIds, parseTreeIds, requireVisibleTrees, storedTreeIds, treeScopeOf } from './credential-trees.js';
import type { Static } from '@sinclair/typebox';
import type { Token as TokenSchema } from '../schemas/agents.js';
import { writeOutsideTrees } from '../write.js';

export const MAX_ACTIVE_TOKENS = 20;
export const TOKEN_LIFETIME_DAYS = [1, 7, 30, 90, 365] as const;
export const DEFAULT_TOKEN_DAYS = 90;
const TOKEN_VALUE = /^ttp_[A-Za-z0-9_-]{43}$/;

export type Token = Static<typeof TokenSchema>;

export function tokenStatus(row: TokenRow, now = nowIso()): Token['status'] {
  if (row.revoked_at !== null) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'active';
}

export function parseScopes(stored: string): Scope[] {
  return scopeNames.filter((s) => stored.split(' ').includes(s));
}

export function presentToken(row: TokenRow, now = nowIso()): Token {
  return {
    id: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    prefix: row.prefix,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    status: tokenStatus(row, now),
    tree_ids: parseTreeIds(row.tree_ids),
  };
}

/** The scopes a new token gets when none are asked for: everything the plan allows. */
export function defaultScopes(plan: PlanName): Scope[] {
  return grantableScopes(plan);
}

export interface CreateTokenInput {
  name: string;
  scopes?: string[];
  expires_in_days?: number;
  /** 1 to 50 trees the actor can see; omitted or null: every tree (CONTRACT §16.1). */
  tree_ids?: string[] | null;
}

/**
 * Creates a personal token and returns its value, which is never stored or shown again.
 * @throws validation_failed, plan_read_only (write on Seed), not_found (a tree the actor cannot see), token_limit_reached
 */
export async function createToken(
  deps: Deps,
  actor: Actor,
  input: CreateTokenInput,
): Promise<{ token: Token; value: string }> {
  checkLength('/name', input.name, 1, TOKEN_NAME_MAX);
  const scopes = input.scopes === undefined ? defaultScopes(actor.plan) : checkScopes(input.scopes);
  if (!scopes.every((s) => grantableScopes(actor.plan).includes(s))) {
    throw new DomainError('plan_read_only', 'The write scope needs the Sprout or Grove plan.');
  }
  const days = input.expires_in_days ?? DEFAULT_TOKEN_DAYS;
  if (!(TOKEN_LIFETIME_DAYS as readonly number[]).includes(days)) {
    throw invalid('/expires_in_days', `must be one of ${TOKEN_LIFETIME_DAYS.join(', ')}`);
  }
  const treeIds = checkTreeIds('/tree_ids', input.tree_ids);
  await requireVisibleTrees(deps.db, actor, treeIds);
  const value = `ttp_${randomSecret(32)}`;
  const now = new Date();
  const row: TokenRow = {
    id: newId('pat'),
    owner_id: actor.user.id,
    name: input.name,
    scopes: scopes.join(' '),
    prefix: value.slice(0, 8),
    token_hash: sha256(value),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: new Date(now.getTime() + days * 86_400_000).toISOString(),
    last_used_at: null,
    revoked_at: null,
    tree_ids: storedTreeIds(treeIds),
  };
  await writeOutsideTrees(deps, async ({ trx }) => {
    // The owner row lock makes count-then-insert atomic under concurrent creation.
    await lockOwner(trx, actor.user.id);
    const active = await trx
      .selectFrom('personal_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', actor.user.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', row.created_at)
      .executeTakeFirstOrThrow();
    if (Number(active.n) >= MAX_ACTIVE_TOKENS) {
      throw new DomainError(
        'token_limit_reached',
        `At most ${MAX_ACTIVE_TOKENS} personal tokens can be active; revoke one first.`,
      );
    }
    await trx.insertInto('personal_tokens').values(row).execute();
  });
  return { token: presentToken(row), value };
}

function checkScopes(scopes: string[]): Scope[] {
  if (scopes.length === 0) throw invalid('/scopes', 'must name at least one scope');
  for (const [i, s] of scopes.entries()) {
    if (!(scopeNames as readonly string[]).includes(s))
      throw invalid(`/scopes/${i}`, `must be one of ${scopeNames.join(', ')}`);
  }
  return scopeNames.filter((s) => scopes.includes(s));
}

/** Every token of the actor, newest first. */
export async function listTokens(deps: Deps, actor: Actor): Promise<Token[]> {
  const rows = await deps.db
    .selectFrom('personal_tokens')
    .selectAll()
    .where('owner_id', '=', actor.user.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const now = nowIso();
  return rows.map((r) => presentToken(r, now));
}

/** @throws not_found */
export async function revokeToken(deps: Deps, actor: Actor, id: string): Promise<void> {
  const now = nowIso();
  const found = await deps.db
    .selectFrom('personal_tokens')
    .select(['id', 'revoked_at'])
    .where('id', '=', id)
    .where('owner_id', '=', actor.user.id)
    .executeTakeFirst();
  if (found === undefined) throw notFound('token');
  if (found.revoked_at === null) {
    await deps.db
      .updateTable('personal_tokens')
      .set({ revoked_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  }
  await endMcpSessionsOf(deps.db, [id]);
  deps.credentials.forgetToken(id);
}

/** The account a token belongs to, for operator tools that act as that account. @throws not_found */
export async function tokenOwner(deps: Deps, tokenId: string): Promise<UserRow> {
  const owner = await deps.db
    .selectFrom('personal_tokens')
    .innerJoin('users', 'users.id', 'personal_tokens.owner_id')
    .selectAll('users')
    .where('personal_tokens.id', '=', tokenId)
    .executeTakeFirst();
  if (owner === undefined) throw notFound('token');
  return owner;
}

/** Ends every personal token of a user (password reset). */
export async function revokeAllTokens(deps: Deps, userId: string, db: Db | Trx = deps.db): Promise<string[]> {
  const now = nowIso();
  const rows = await db
    .updateTable('personal_tokens')
    .set({ revoked_at: now, updated_at: now })
    .where('owner_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  await endMcpSessionsOf(db, ids);
  for (const id of ids) deps.credentials.forgetToken(id);
  return ids;
}

/**
 * The token and owner of a value looked up within the last second (see CredentialCache), without
 * waiting: null for a value that cannot be a token, undefined when only the database can tell.
 */
export function cachedToken(deps: Deps, value: string): TokenOwner | null | undefined {
  const hash = hashOfToken(value);
  // Revoked entries are forgotten and none outlives its token's expiry, so a hit is active.
  return hash === null ? null : deps.credentials.get(hash);
}

/** What a token is stored and cached by; null for a value that cannot be a token. */
function hashOfToken(value: string): string | null {
  return TOKEN_VALUE.test(value) ? sha256(value) : null;
}

export async function authenticateToken(deps: Deps, value: string): Promise<TokenOwner | null> {
  const hash = hashOfToken(value);
  if (hash === null) return null;
  const cached = deps.credentials.get(hash);
  if (cached !== undefined) return cached;
  const since = deps.credentials.generation;
  const found = await findTokenWithOwner(deps.db, hash);
  if (found === undefined) return null;
  const { token, user } = found;
  if (tokenStatus(token) !== 'active') return null;
  const owner = {
    token,
    user,
    scopes: new Set(parseScopes(token.scopes)),
    trees: treeScopeOf(token.tree_ids),
    lastUsedMs: token.last_used_at === null ? 0 : Date.parse(token.last_used_at),
  };
  deps.credentials.set(hash, owner, since);
  return owner;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Records use at most once a minute per token, so reads do not turn into writes; undefined when there was nothing to record. */
export function touchToken(deps: Deps, owner: TokenOwner): Promise<unknown> | undefined {
  const now = Date.now();
  if (now - owner.lastUsedMs < LAST_USED_RESOLUTION_MS) return undefined;
  const { token } = owner;
  const at = new Date(now).toISOString();
  owner.lastUsedMs = now;
  token.last_used_at = at;
  return deps.db.updateTable('personal_tokens').set({ last_used_at: at }).where('id', '=', token.id).execute();
}
