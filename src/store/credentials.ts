import type { Selectable } from 'kysely';
import type { Db, Trx } from './types.js';
import type { McpSessionTable } from './schema.js';
import type { TokenRow, UserRow } from './rows.js';
import { compiledOnce } from './compiled.js';

// The lookups behind every request that presents a token or an MCP session: compiled once (see
// compiledOnce), and the joined row split here, field by field, as it runs on every request.

const tokenWithOwner = compiledOnce((db, hash: string) =>
  db
    .selectFrom('personal_tokens as t')
    .innerJoin('users as u', 'u.id', 't.owner_id')
    .select([
      't.id as t_id',
      't.owner_id as t_owner_id',
      't.name as t_name',
      't.scopes as t_scopes',
      't.prefix as t_prefix',
      't.token_hash as t_token_hash',
      't.created_at as t_created_at',
      't.updated_at as t_updated_at',
      't.expires_at as t_expires_at',
      't.last_used_at as t_last_used_at',
      't.revoked_at as t_revoked_at',
      't.tree_ids as t_tree_ids',
    ])
    .selectAll('u')
    .where('t.token_hash', '=', hash),
);

/** The token stored under `hash` (whatever its state) and its owner. */
export async function findTokenWithOwner(
  db: Db | Trx,
  hash: string,
): Promise<{ token: TokenRow; user: UserRow } | undefined> {
  const [row] = await tokenWithOwner(db, hash);
  if (row === undefined) return undefined;
  const token: TokenRow = {
    id: row.t_id,
    owner_id: row.t_owner_id,
    name: row.t_name,
    scopes: row.t_scopes,
    prefix: row.t_prefix,
    token_hash: row.t_token_hash,
    created_at: row.t_created_at,
    updated_at: row.t_updated_at,
    expires_at: row.t_expires_at,
    last_used_at: row.t_last_used_at,
    revoked_at: row.t_revoked_at,
    tree_ids: row.t_tree_ids,
  };
  const user: UserRow = {
    id: row.id,
    owner_id: row.owner_id,
    email: row.email,
    password_hash: row.password_hash,
    name: row.name,
    language: row.language,
    timezone: row.timezone,
    plan: row.plan,
    plan_expires_at: row.plan_expires_at,
    billing_customer_id: row.billing_customer_id,
    billing_event_at: row.billing_event_at,
    email_verified_at: row.email_verified_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  return { token, user };
}

// Looked up on every MCP request of a session.
const sessionByHash = compiledOnce((db, hash: string) =>
  db.selectFrom('mcp_sessions').selectAll().where('id_hash', '=', hash),
);

/** The MCP session stored under `hash`, whatever its state. */
export async function findMcpSessionByHash(
  db: Db | Trx,
  hash: string,
): Promise<Selectable<McpSessionTable> | undefined> {
  return (await sessionByHash(db, hash))[0];
}
