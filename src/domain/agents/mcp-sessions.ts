import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Db, Trx } from '../../store/db.js';
import { randomSecret, sha256 } from '../crypto.js';
import { nowIso } from '../ids.js';
import { findMcpSessionByHash } from '../../store/credentials.js';

/** An idle MCP session ends after a day; any request within it keeps it alive. */
export const MCP_SESSION_IDLE_MS = 24 * 3_600_000;
const TOUCH_EVERY_MS = 60_000;

export interface McpSessionInfo {
  protocolVersion: string;
  clientName: string;
  clientVersion: string;
}

export type SessionLookup = { ok: true; session: McpSessionInfo } | { ok: false };

/**
 * Mints the Mcp-Session-Id of a new session, bound to the credential that opened it. Only a
 * hash is stored; the row (not the SDK's memory) is the session, so any instance can serve it.
 */
export async function openMcpSession(deps: Deps, actor: Actor, info: McpSessionInfo): Promise<string> {
  const id = randomSecret(32);
  const now = nowIso();
  await deps.db
    .insertInto('mcp_sessions')
    .values({
      id_hash: sha256(id),
      owner_id: actor.user.id,
      credential_id: actor.credentialId ?? '',
      protocol_version: info.protocolVersion,
      client_name: info.clientName.slice(0, 120),
      client_version: info.clientVersion.slice(0, 60),
      created_at: now,
      last_seen_at: now,
      ended_at: null,
    })
    .execute();
  return id;
}

/** The live session with this id opened by this very credential; anything else is unknown. */
export async function findMcpSession(deps: Deps, actor: Actor, id: string): Promise<SessionLookup> {
  const row = await findMcpSessionByHash(deps.db, sha256(id));
  const now = Date.now();
  if (
    row === undefined ||
    row.ended_at !== null ||
    row.owner_id !== actor.user.id ||
    row.credential_id !== (actor.credentialId ?? '') ||
    now - Date.parse(row.last_seen_at) > MCP_SESSION_IDLE_MS
  ) {
    return { ok: false };
  }
  if (now - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
    await deps.db
      .updateTable('mcp_sessions')
      .set({ last_seen_at: new Date(now).toISOString() })
      .where('id_hash', '=', row.id_hash)
      .execute();
  }
  return {
    ok: true,
    session: { protocolVersion: row.protocol_version, clientName: row.client_name, clientVersion: row.client_version },
  };
}

/** DELETE /mcp. Returns whether a live session of this credential was ended. */
export async function endMcpSession(deps: Deps, actor: Actor, id: string): Promise<boolean> {
  const found = await findMcpSession(deps, actor, id);
  if (!found.ok) return false;
  await deps.db.updateTable('mcp_sessions').set({ ended_at: nowIso() }).where('id_hash', '=', sha256(id)).execute();
  return true;
}

/** Revocation, expiry handling and password reset end every session opened with these credentials. */
export async function endMcpSessionsOf(db: Db | Trx, credentialIds: string[]): Promise<void> {
  if (credentialIds.length === 0) return;
  await db
    .updateTable('mcp_sessions')
    .set({ ended_at: nowIso() })
    .where('credential_id', 'in', credentialIds)
    .where('ended_at', 'is', null)
    .execute();
}

/**
 * Retention: rows of sessions that can never serve again (ended, or idle past the window) go
 * once a day has passed, so an ended session still reads as ended for a while when inspected.
 */
export async function purgeDeadMcpSessions(deps: Deps, now = new Date()): Promise<number> {
  const idleSince = new Date(now.getTime() - MCP_SESSION_IDLE_MS).toISOString();
  const result = await deps.db
    .deleteFrom('mcp_sessions')
    .where((w) =>
      w.or([w('last_seen_at', '<', idleSince), w.and([w('ended_at', 'is not', null), w('ended_at', '<', idleSince)])]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
