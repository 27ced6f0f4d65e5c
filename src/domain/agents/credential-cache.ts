import type { TokenRow, UserRow } from '../../store/rows.js';
import type { Scope } from '../actor.js';

export interface TokenOwner {
  token: TokenRow;
  user: UserRow;
  /** The token's scopes, parsed once per lookup. */
  scopes: ReadonlySet<Scope>;
  /**
   * The token's trees (CONTRACT §16.1), parsed once per lookup; null: every tree. A token's trees
   * never change after it is made, so a kept entry cannot see more than the token may; a revoked
   * one is forgotten at once (forgetToken), as before.
   */
  trees: ReadonlySet<string> | null;
  /** `token.last_used_at` in ms (0 for never), parsed once per lookup: touchToken asks on every request. */
  lastUsedMs: number;
}

/**
 * A live MCP session of a personal token as a lookup found it (mcp-sessions.ts findMcpSession):
 * what the session is bound to, what the route needs of it, and when it was last recorded as used.
 */
export interface KeptSession {
  ownerId: string;
  credentialId: string;
  protocolVersion: string;
  clientName: string;
  clientVersion: string;
  /** `last_seen_at` in ms; moved forward when the session's use is recorded again. */
  lastSeenMs: number;
}

/** How long a looked-up token stays trusted without asking the database again. */
export const CREDENTIAL_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

/** Values by hash until a moment each, the oldest making room past MAX_ENTRIES (insertion order is age order). */
class Expiring<V> {
  private readonly values = new Map<string, { value: V; until: number }>();

  constructor(private readonly now: () => number) {}

  get(hash: string): V | undefined {
    const entry = this.values.get(hash);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.values.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  set(hash: string, value: V, until: number): void {
    if (this.values.size >= MAX_ENTRIES) this.values.delete(this.values.keys().next().value!);
    this.values.set(hash, { value, until });
  }

  delete(hash: string): void {
    this.values.delete(hash);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const [hash, entry] of this.values) if (matches(entry.value)) this.values.delete(hash);
  }
}

/**
 * Token lookups of the last second, by token hash. Finding a token and its owner costs more than
 * the rest of a typical request, and agents call in bursts, so a busy token is read once a second
 * instead of on every call.
 *
 * A revocation, a profile change or a plan change made in this process forgets the entries it
 * touches at once; a plan set by the CLI shows within the TTL. So it is on only for the embedded
 * SQLite store, served by one process; with PostgreSQL, where instances may be many and a
 * revocation must end the token everywhere with the next request, the TTL is zero. An entry
 * never outlives its token's expiry. Unknown tokens are never kept. A lookup that was in flight
 * while something was forgotten is not kept either (`generation`), so it cannot bring back what
 * a revocation just removed.
 *
 * The live MCP sessions of personal tokens are kept the same way, by session id hash, with the
 * same TTL: an MCP call of a session otherwise asks the database for its session on every call,
 * which costs as much as the tool's own read. A session is forgotten with its token (revocation,
 * password reset) or its user (profile, plan), when it is ended here (DELETE /mcp), and after
 * the TTL; only live sessions are kept, and the route still checks the owner, the credential and
 * the idle window on every call. The session of any other credential (OAuth grants, whose
 * revocation ends their sessions without this cache) is looked up every time.
 */
export class CredentialCache {
  private readonly entries: Expiring<TokenOwner>;
  private readonly sessions: Expiring<KeptSession>;
  /** Bumped by every forget; a lookup stores its result only if nothing was forgotten meanwhile. */
  generation = 0;

  constructor(
    private readonly ttlMs = CREDENTIAL_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new Expiring(now);
    this.sessions = new Expiring(now);
  }

  /** False with a TTL of zero (PostgreSQL): every lookup goes to the database. */
  get keeps(): boolean {
    return this.ttlMs > 0;
  }

  get(hash: string): TokenOwner | undefined {
    return this.entries.get(hash);
  }

  /** Keeps a lookup made when `generation` was `since`. */
  set(hash: string, owner: TokenOwner, since: number): void {
    if (since !== this.generation || !this.keeps) return;
    this.entries.set(hash, owner, Math.min(this.now() + this.ttlMs, Date.parse(owner.token.expires_at)));
  }

  getSession(hash: string): KeptSession | undefined {
    return this.sessions.get(hash);
  }

  /** Keeps a live session looked up when `generation` was `since`. */
  setSession(hash: string, session: KeptSession, since: number): void {
    if (since !== this.generation || !this.keeps) return;
    this.sessions.set(hash, session, this.now() + this.ttlMs);
  }

  /** A session ended here (DELETE /mcp). */
  forgetSession(hash: string): void {
    this.generation++;
    this.sessions.delete(hash);
  }

  forgetToken(tokenId: string): void {
    this.forget(
      (owner) => owner.token.id === tokenId,
      (session) => session.credentialId === tokenId,
    );
  }

  forgetUser(userId: string): void {
    this.forget(
      (owner) => owner.user.id === userId,
      (session) => session.ownerId === userId,
    );
  }

  clear(): void {
    this.forget(
      () => true,
      () => true,
    );
  }

  private forget(matches: (owner: TokenOwner) => boolean, sessionMatches: (session: KeptSession) => boolean): void {
    this.generation++;
    this.entries.deleteWhere(matches);
    this.sessions.deleteWhere(sessionMatches);
  }
}
