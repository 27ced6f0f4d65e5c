import type { Selectable } from 'kysely';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { HistoryTable } from '../../store/schema.js';
import { requireRead } from '../actor.js';
import { treeAccess } from '../access.js';
import { checkLimit, decodeCursor, encodeCursor, type Page, type PageInput } from '../paging.js';
import { planLimits, type PlanName } from '../plans.js';
import type { Static } from '@sinclair/typebox';
import type { HistoryEntry as HistoryEntrySchema } from '../schemas/teams.js';

export type HistoryAction = 'created' | 'updated' | 'deleted' | 'moved' | 'imported' | 'completed';

/** Field changes of one write: `{field: {from, to}}`. */
export type Changes = Record<string, { from: unknown; to: unknown }>;

export interface HistoryEntryInput {
  ownerId: string;
  treeId: string;
  entity: 'tree' | 'project' | 'task' | 'attachment' | 'comment' | 'message' | 'member' | 'import';
  entityId: string;
  action: HistoryAction;
  changes?: Changes;
  /** The change a revert undid with this entry (CONTRACT §16.3). */
  reverts?: string;
  /** What undoing this entry needs that `changes` does not show (kept, never answered). */
  restore?: Changes;
}

/** The changed fields between a row and a patch, for the history entry of an update. */
export function diff<T extends Record<string, unknown>>(before: T, after: Partial<T>): Changes {
  const changes: Changes = {};
  for (const [field, to] of Object.entries(after)) {
    if (to !== undefined && before[field] !== to) changes[field] = { from: before[field] ?? null, to };
  }
  return changes;
}

/**
 * The fields of `after` that `changes` names. An update writes only these, so a parallel write
 * of another field (a task carried to another tree with its project) is not undone with the
 * stale value this write read before it.
 */
export function changedFields<T extends Record<string, unknown>>(after: T, changes: Changes): Partial<T> {
  return Object.fromEntries(Object.keys(changes).map((field) => [field, after[field]])) as Partial<T>;
}

export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export function presentHistory(h: Selectable<HistoryTable>): HistoryEntry {
  return {
    id: h.id,
    at: h.at,
    tree_id: h.tree_id,
    actor_id: h.actor_id,
    via: h.via,
    entity: h.entity,
    entity_id: h.entity_id,
    action: h.action,
    changes: JSON.parse(h.changes) as Changes,
    change_id: h.change_id,
    credential_id: h.credential_id,
    client: h.client,
    reverts: h.reverts,
  };
}

/** A history page's filters (CONTRACT §16.3): one change, or one credential's entries. */
export interface HistoryFilters extends PageInput {
  change_id?: string;
  credential_id?: string;
}

/** The oldest moment the owner's plan keeps history for (CONTRACT §4: 7, 90 or 365 days). */
export function historyWindowStart(ownerPlan: PlanName, now = new Date()): string {
  return new Date(now.getTime() - planLimits[ownerPlan].historyDays * 86_400_000).toISOString();
}

/**
 * A tree's history, newest first, inside the owner's plan window. The cursor holds the oldest
 * entry shown, so entries written while paging appear on a fresh page one, never in between.
 * @throws not_found, invalid_cursor, cursor_expired
 */
export async function listHistory(
  deps: Deps,
  actor: Actor,
  treeId: string,
  input: HistoryFilters,
): Promise<Page<HistoryEntry>> {
  requireRead(actor);
  const access = await treeAccess(deps.db, actor, treeId);
  const limit = checkLimit(input.limit);
  const filters = {
    tree_id: treeId,
    ...(input.change_id !== undefined ? { change_id: input.change_id } : {}),
    ...(input.credential_id !== undefined ? { credential_id: input.credential_id } : {}),
  };
  const binding = { actorKey: actor.user.id, endpoint: 'history', filters, limit };
  const before = input.cursor === undefined ? null : decodeCursor(deps.config.secret, binding, input.cursor).last;
  let query = deps.db
    .selectFrom('history')
    .selectAll()
    .where('tree_id', '=', treeId)
    .where('owner_id', '=', access.ownerId)
    .where('at', '>=', historyWindowStart(access.ownerPlan));
  if (before !== null) query = query.where('seq', '<', before);
  if (input.change_id !== undefined) query = query.where('change_id', '=', input.change_id);
  if (input.credential_id !== undefined) query = query.where('credential_id', '=', input.credential_id);
  const rows = await query
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const next =
    rows.length > limit
      ? encodeCursor(deps.config.secret, binding, { last: Number(page[page.length - 1]!.seq), high: 0 })
      : null;
  return { items: page.map(presentHistory), next_cursor: next };
}
