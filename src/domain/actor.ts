import { DomainError } from './errors.js';
import { effectivePlan, planLimits, type PlanName } from './plans.js';
import type { UserRow } from './accounts/accounts.js';

export const scopeNames = ['read', 'write', 'attachments'] as const;
export type Scope = (typeof scopeNames)[number];

/** How the actor reached the domain. Browser sessions and the operator's CLI are not "API" writes. */
export type Via = 'session' | 'token' | 'oauth' | 'mcp' | 'cli';

/** The signed-in user's row, as the credential lookup read it. */
export type ActorUser = UserRow;

/** Who is acting, through which credential, with which scopes and effective plan. Built once at each door. */
export interface Actor {
  user: ActorUser;
  via: Via;
  /** The personal token or OAuth grant id; null for sessions and the CLI. */
  credentialId: string | null;
  scopes: ReadonlySet<Scope>;
  plan: PlanName;
}

export const allScopes: ReadonlySet<Scope> = new Set(scopeNames);

/** The signed-in person themself (browser session or operator CLI): every scope, the plan in force now. */
export function userActor(user: ActorUser, via: 'session' | 'cli'): Actor {
  return { user, via, credentialId: null, scopes: allScopes, plan: effectivePlan(user.plan, user.plan_expires_at) };
}

/** Writes through tokens, OAuth and MCP need a paid plan; the browser session and the CLI may write on Seed. */
export function isApiCall(actor: Actor): boolean {
  return actor.via === 'token' || actor.via === 'oauth' || actor.via === 'mcp';
}

/** @throws insufficient_scope */
export function requireScopes(actor: Actor, needed: readonly Scope[]): void {
  const missing = needed.filter((s) => !actor.scopes.has(s));
  if (missing.length > 0) {
    throw new DomainError('insufficient_scope', `This credential lacks the ${missing.join(', ')} scope.`, [{ scopes: missing }]);
  }
}

/** @throws plan_read_only */
export function requireWritePlan(actor: Actor): void {
  if (isApiCall(actor) && !planLimits[actor.plan].apiWrites) {
    throw new DomainError('plan_read_only', 'The Seed plan can only read through the API; writes need Sprout or Grove.');
  }
}

/** The check a write use case starts with: scope, then plan (CONTRACT §12 order). */
export function requireWrite(actor: Actor, extra: readonly Scope[] = []): void {
  requireScopes(actor, ['write', ...extra]);
  requireWritePlan(actor);
}

export function requireRead(actor: Actor, extra: readonly Scope[] = []): void {
  requireScopes(actor, ['read', ...extra]);
}
