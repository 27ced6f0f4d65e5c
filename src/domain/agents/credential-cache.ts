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

/** How long a looked-up token stays trusted without asking the database again. */
export const CREDENTIAL_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

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
 */
export class CredentialCache {
  private readonly entries = new Map<string, { owner: TokenOwner; until: number }>();
  /** Bumped by every forget; a lookup stores its result only if nothing was forgotten meanwhile. */
  generation = 0;

  constructor(
    private readonly ttlMs = CREDENTIAL_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** False with a TTL of zero (PostgreSQL): every lookup goes to the database. */
  get keeps(): boolean {
    return this.ttlMs > 0;
  }

  get(hash: string): TokenOwner | undefined {
    const entry = this.entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.owner;
  }

  /** Keeps a lookup made when `generation` was `since`. */
  set(hash: string, owner: TokenOwner, since: number): void {
    if (since !== this.generation || !this.keeps) return;
    // Insertion order is age order: the oldest entry makes room.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { owner, until: Math.min(this.now() + this.ttlMs, Date.parse(owner.token.expires_at)) });
  }

  forgetToken(tokenId: string): void {
    this.forget((owner) => owner.token.id === tokenId);
  }

  forgetUser(userId: string): void {
    this.forget((owner) => owner.user.id === userId);
  }

  clear(): void {
    this.forget(() => true);
  }

  private forget(matches: (owner: TokenOwner) => boolean): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (matches(entry.owner)) this.entries.delete(hash);
  }
}
