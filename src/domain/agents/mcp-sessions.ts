import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Db, Trx } from '../../store/db.js';
import { randomSecret, sha256 } from '../crypto.js';
import { nowIso } from '../ids.js';
import { findMcpSessionByHash } from '../../store/credentials.js';
import type { KeptSession } from './credential-cache.js';

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

/**
 * The live session with this id opened by this very credential; anything else is unknown.
 * `keep`: the credential is a personal token, whose live sessions the credential cache may keep
 * for its TTL (see CredentialCache); the owner, the credential and the idle window are checked
 * on every call either way.
 */
export async function findMcpSession(deps: Deps, actor: Actor, id: string, keep = false): Promise<SessionLookup> {
  const hash = sha256(id);
  let session = deps.credentials.getSession(hash);
  if (session === undefined) {
    const since = deps.credentials.generation;
    const row = await findMcpSessionByHash(deps.db, hash);
    if (row === undefined || row.ended_at !== null) return { ok: false };
    session = {
      ownerId: row.owner_id,
      credentialId: row.credential_id,
      protocolVersion: row.protocol_version,
      clientName: row.client_name,
      clientVersion: row.client_version,
      lastSeenMs: Date.parse(row.last_seen_at),
    };
    if (keep && isLive(session, actor, Date.now())) deps.credentials.setSession(hash, session, since);
  }
  const now = Date.now();
  if (!isLive(session, actor, now)) return { ok: false };
  if (now - session.lastSeenMs > TOUCH_EVERY_MS) {
    session.lastSeenMs = now;
    await deps.db
      .updateTable('mcp_sessions')
      .set({ last_seen_at: new Date(now).toISOString() })
      .where('id_hash', '=', hash)
      .execute();
  }
  const { protocolVersion, clientName, clientVersion } = session;
  return { ok: true, session: { protocolVersion, clientName, clientVersion } };
}

/** Whether a session that has not ended serves this credential now: its own, and not idle past the window. */
function isLive(session: KeptSession, actor: Actor, now: number): boolean {
  return (
    session.ownerId === actor.user.id &&
    session.credentialId === (actor.credentialId ?? '') &&
    now - session.lastSeenMs <= MCP_SESSION_IDLE_MS
  );
}

/** DELETE /mcp. Returns whether a live session of this credential was ended. */
export async function endMcpSession(deps: Deps, actor: Actor, id: string): Promise<boolean> {
  const found = await findMcpSession(deps, actor, id);
  if (!found.ok) return false;
  const hash = sha256(id);
  await deps.db.updateTable('mcp_sessions').set({ ended_at: nowIso() }).where('id_hash', '=', hash).execute();
  deps.credentials.forgetSession(hash);
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
