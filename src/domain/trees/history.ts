import type { Actor } from '../actor.js';
import type { Trx } from '../../store/db.js';
import { newId, nowIso } from '../ids.js';

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
}

/** Appends one history entry inside the write's own transaction (CONTRACT §10). */
export async function appendHistory(trx: Trx, actor: Actor, entry: HistoryEntryInput, at = nowIso()): Promise<void> {
  await trx
    .insertInto('history')
    .values({
      id: newId('his'),
      owner_id: entry.ownerId,
      tree_id: entry.treeId,
      at,
      actor_id: actor.user.id,
      via: actor.via,
      entity: entry.entity,
      entity_id: entry.entityId,
      action: entry.action,
      changes: JSON.stringify(entry.changes ?? {}),
    })
    .execute();
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
