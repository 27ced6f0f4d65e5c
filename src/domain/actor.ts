import { DomainError } from './errors.js';
import { effectivePlan, planLimits, type PlanName } from './plans.js';
import type { UserRow } from '../store/rows.js';
import { newChange, type Change } from './change.js';

import { scopeNames } from './schemas/agents.js';

export { scopeNames };
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
  /** The personal token's name or the OAuth client's name, for history entries; null for sessions and the CLI. */
  client: string | null;
  /**
   * The change this actor's writes belong to (CONTRACT §16.3): minted with the actor at each door,
   * once per request, MCP tool call or CLI command. The write runner stamps it on every entry.
   */
  change: Change;
  scopes: ReadonlySet<Scope>;
  plan: PlanName;
  /**
   * The trees a tree-scoped token or grant is limited to (CONTRACT §16.1); null: every tree the
   * user can see (sessions, the CLI, unscoped credentials). Access resolution (access.ts) reads it,
   * and nothing else: a tree outside it is not found, exactly as a foreign one.
   */
  trees: ReadonlySet<string> | null;
}

export const allScopes: ReadonlySet<Scope> = new Set(scopeNames);

/** The scopes a plan lets a new token or grant hold (SPEC rule 5): `write` only on a paid plan. */
export function grantableScopes(plan: PlanName): Scope[] {
  return scopeNames.filter((s) => s !== 'write' || planLimits[plan].apiWrites);
}

/** The signed-in person themself (browser session or operator CLI): every scope, the plan in force now. */
export function userActor(user: ActorUser, via: 'session' | 'cli'): Actor {
  return {
    user,
    via,
    credentialId: null,
    client: null,
    change: newChange(),
    scopes: allScopes,
    plan: effectivePlan(user.plan, user.plan_expires_at),
    trees: null,
  };
}

/** Writes through tokens, OAuth and MCP need a paid plan; the browser session and the CLI may write on Seed. */
export function isApiCall(actor: Actor): boolean {
  return actor.via === 'token' || actor.via === 'oauth' || actor.via === 'mcp';
}

/** @throws insufficient_scope */
export function requireScopes(actor: Actor, needed: readonly Scope[]): void {
  const missing = needed.filter((s) => !actor.scopes.has(s));
  if (missing.length > 0) {
    throw new DomainError('insufficient_scope', `This credential lacks the ${missing.join(', ')} scope.`, [
      { scopes: missing },
    ]);
  }
}

/**
 * Creating a tree is for a credential of every tree (CONTRACT §16.1): a tree-scoped one could
 * never see what it made. Part of the scope step (CONTRACT §12: before the plan). @throws insufficient_scope
 */
function requireEveryTree(actor: Actor): void {
  if (actor.trees !== null) {
    throw new DomainError(
      'insufficient_scope',
      'This credential is limited to chosen trees; creating a tree needs one for every tree.',
      [{ scopes: [], trees: 'all' }],
    );
  }
}

/** Whether the actor's own effective plan lets this door write (the browser session and the CLI always may). */
function planAllowsWrites(actor: Actor): boolean {
  return !isApiCall(actor) || planLimits[actor.plan].apiWrites;
}

/** @throws plan_read_only */
export function requireWritePlan(actor: Actor): void {
  if (!planAllowsWrites(actor)) {
    throw new DomainError(
      'plan_read_only',
      'The Seed plan can only read through the API; writes need Sprout or Grove.',
    );
  }
}

/**
 * Every capability a door can offer, and what it needs: scopes (SPEC "Rules"), and whether it
 * is a write, which API credentials may only make on a paid plan of their own (CONTRACT §4).
 * REST routes, MCP tool visibility and the use cases below all read this one table.
 * - `attachments` is attachment content, and the signed link that hands it out (SPEC rule 4);
 *   transcripts are content of their audio, so reading speech jobs needs it too (CONTRACT §19).
 * - `transcribe` is the actor's side of transcription; the plan feature itself is the tree
 *   owner's (CONTRACT §10: a shared tree's plan limits are its owner's), checked at the tree.
 * - `treeCreate` also needs a credential of every tree (`everyTree`): a tree-scoped token or grant
 *   gets insufficient_scope (CONTRACT §16.1). Which trees a credential reaches otherwise is
 *   decided in access.ts (`inScope`), where every tree, project and task is resolved.
 */
export const capabilityNeeds = {
  read: { scopes: ['read'], write: false },
  write: { scopes: ['write'], write: true },
  treeCreate: { scopes: ['write'], write: true, everyTree: true },
  attachments: { scopes: ['read', 'attachments'], write: false },
  attachmentWrites: { scopes: ['write', 'attachments'], write: true },
  transcribe: { scopes: ['write', 'attachments'], write: true },
} as const satisfies Record<string, { scopes: readonly Scope[]; write: boolean; everyTree?: true }>;
export type Capability = keyof typeof capabilityNeeds;
type Needs = { scopes: readonly Scope[]; write: boolean; everyTree?: true };

/** Whether the actor holds the capability now (scopes and effective plan, evaluated per request). */
export function can(actor: Actor, capability: Capability): boolean {
  const needs: Needs = capabilityNeeds[capability];
  return (
    needs.scopes.every((s) => actor.scopes.has(s)) &&
    (needs.everyTree !== true || actor.trees === null) &&
    (!needs.write || planAllowsWrites(actor))
  );
}

/** The check a use case starts with, in CONTRACT §12's order: scope, then plan. @throws insufficient_scope, plan_read_only */
export function requireCapability(actor: Actor, capability: Capability): void {
  const needs: Needs = capabilityNeeds[capability];
  requireScopes(actor, needs.scopes);
  if (needs.everyTree === true) requireEveryTree(actor);
  if (needs.write) requireWritePlan(actor);
}

/** @throws insufficient_scope, plan_read_only */
export function requireWrite(actor: Actor): void {
  requireCapability(actor, 'write');
}

/** @throws insufficient_scope */
export function requireRead(actor: Actor): void {
  requireCapability(actor, 'read');
}
