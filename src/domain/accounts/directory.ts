import type { Deps } from '../deps.js';
import { presentUser, type User } from './accounts.js';
import type { UserRow } from '../../store/rows.js';
import { MCP_SESSION_IDLE_MS } from '../agents/mcp-sessions.js';

/**
 * The operator's view of accounts (`tasktree user list|show`). Counts and dates only: never a
 * credential, a hash or any text a user wrote, so the output is safe to paste into a ticket.
 */

export interface AccountListItem extends User {
  trees: number;
}

export interface AccountPage {
  items: AccountListItem[];
  /** The email to pass as `after` for the next page; null on the last one. */
  next_after: string | null;
}

export const ACCOUNT_PAGE_MAX = 1000;

/** Accounts by email, `limit` at a time, starting after the given email (keyset paging). */
export async function listAccounts(deps: Deps, options: { after?: string; limit: number }): Promise<AccountPage> {
  let query = deps.db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .selectFrom('trees')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('trees.owner_id', '=', 'users.id')
        .as('tree_count'),
    )
    .orderBy('email')
    .limit(options.limit + 1);
  if (options.after !== undefined) query = query.where('email', '>', options.after);
  const rows = await query.execute();
  const page = rows.slice(0, options.limit);
  const now = new Date();
  return {
    items: page.map(({ tree_count, ...row }) => ({
      ...presentUser(row as UserRow, now),
      trees: Number(tree_count ?? 0),
    })),
    next_after: rows.length > options.limit ? page[page.length - 1]!.email : null,
  };
}

export interface AccountSummary {
  user: User;
  owns: { trees: number; projects: number; tasks: number; attachments: number; attachment_bytes: number };
  /** Trees of other owners this account is an active member of. */
  member_of: number;
  tokens: { active: number; expired: number; revoked: number; last_used_at: string | null };
  sessions: { active: number };
  mcp_sessions: { open: number };
  oauth_connections: { active: number };
}

/** Everything an operator needs to answer "what does this account hold and what can reach it". */
export async function summarizeAccount(deps: Deps, user: UserRow): Promise<AccountSummary> {
  const now = new Date().toISOString();
  const idleSince = new Date(Date.now() - MCP_SESSION_IDLE_MS).toISOString();
  const owner = user.id;
  const count = (n: unknown) => Number(n ?? 0);
  const [owned, attachments, member, tokens, sessions, mcp, oauth] = await Promise.all([
    deps.db
      .selectFrom('trees')
      .where('owner_id', '=', owner)
      .select((eb) => [
        eb.fn.countAll<number>().as('trees'),
        eb.fn.sum<number>('project_count').as('projects'),
        eb.fn.sum<number>('task_count').as('tasks'),
      ])
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('attachments')
      .where('owner_id', '=', owner)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('members')
      .where('user_id', '=', owner)
      .where('status', '=', 'active')
      .where((w) => w.or([w('expires_at', 'is', null), w('expires_at', '>', now)]))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('personal_tokens')
      .where('owner_id', '=', owner)
      .select(['revoked_at', 'expires_at', 'last_used_at'])
      .execute(),
    deps.db
      .selectFrom('sessions')
      .where('owner_id', '=', owner)
      .where('expires_at', '>', now)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('mcp_sessions')
      .where('owner_id', '=', owner)
      .where('ended_at', 'is', null)
      .where('last_seen_at', '>', idleSince)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('oauth_grants')
      .where('owner_id', '=', owner)
      .where('revoked_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const revoked = tokens.filter((t) => t.revoked_at !== null);
  const expired = tokens.filter((t) => t.revoked_at === null && t.expires_at <= now);
  const lastUsed =
    tokens
      .map((t) => t.last_used_at)
      .filter((at): at is string => at !== null)
      .sort()
      .at(-1) ?? null;
  return {
    user: presentUser(user),
    owns: {
      trees: count(owned.trees),
      projects: count(owned.projects),
      tasks: count(owned.tasks),
      attachments: count(attachments.n),
      attachment_bytes: count(attachments.bytes),
    },
    member_of: count(member.n),
    tokens: {
      active: tokens.length - revoked.length - expired.length,
      expired: expired.length,
      revoked: revoked.length,
      last_used_at: lastUsed,
    },
    sessions: { active: count(sessions.n) },
    mcp_sessions: { open: count(mcp.n) },
    oauth_connections: { active: count(oauth.n) },
  };
}
