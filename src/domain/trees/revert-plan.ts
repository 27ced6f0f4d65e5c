import type { HistoryRow } from '../../store/rows.js';
import type { Changes } from './history.js';

/**
 * What undoing a set of changes means for each record they touched (CONTRACT §16.3), worked out
 * from their history entries alone: the pure half of a revert (revert.ts applies it).
 */

/** The records a revert undoes; entries of anything else are skipped and left as they are. */
export type RecordEntity = 'tree' | 'project' | 'task';
const UNDONE: ReadonlySet<string> = new Set<RecordEntity>(['tree', 'project', 'task']);

/** The fields that name a record's place inside its tree (as move.ts keeps them). */
const PLACE_FIELDS = ['project_id', 'parent_id'];

export interface Skipped {
  entity: string;
  entity_id: string;
  action: string;
}

/**
 * One record's undo: `remove` a record the changes created; `restore` one they deleted, with
 * `fields` as it was; `fields` set back on one they changed; `none` when it was created and
 * deleted within the changes (nothing to do).
 */
export interface RecordPlan {
  entity: RecordEntity;
  id: string;
  kind: 'remove' | 'restore' | 'fields' | 'none';
  /** restore: the record's every field as before the changes; fields: each changed field's value before. */
  fields: Record<string, unknown>;
  /** The first entry of the changes that names the record: later entries of other changes conflict. */
  firstSeq: number;
  /** The newest change that touched it: what its revert entries name in `reverts`. */
  changeId: string;
  /** How many entries of the changes this record's undo accounts for. */
  entries: number;
}

export interface RevertPlan {
  records: RecordPlan[];
  skipped: Skipped[];
}

function parsed(text: string | null): Changes {
  return text === null ? {} : (JSON.parse(text) as Changes);
}

/**
 * What an entry changed, as a revert needs it: a move into another tree names the record's place
 * there only with a `from` it could not see (move.ts), so that entry's place fields are left to
 * the entry of the tree it left, whose kept `restore` holds the place it had; kept values override.
 */
export function effectiveChanges(entry: Pick<HistoryRow, 'tree_id' | 'changes' | 'restore'>): Changes {
  const changes = parsed(entry.changes);
  const tree = changes.tree_id;
  const intoThisTree = tree !== undefined && tree.from !== tree.to && tree.to === entry.tree_id;
  const out: Changes = {};
  for (const [field, change] of Object.entries(changes)) {
    if (intoThisTree && PLACE_FIELDS.includes(field)) continue;
    out[field] = change;
  }
  return { ...out, ...parsed(entry.restore) };
}

/** A delete entry that holds the record whole (CONTRACT §16.3); entries of older releases held only a name. */
function holdsRecord(entity: RecordEntity, changes: Changes): boolean {
  const needed = entity === 'task' ? ['id', 'tree_id', 'title', 'status'] : ['id', 'tree_id', 'name'];
  return needed.every((field) => changes[field] !== undefined);
}

/** The plan of undoing `entries` (oldest first), record by record. */
export function planRevert(entries: readonly HistoryRow[]): RevertPlan {
  const skipped: Skipped[] = [];
  const byRecord = new Map<string, HistoryRow[]>();
  for (const entry of entries) {
    if (!UNDONE.has(entry.entity)) {
      skipped.push({ entity: entry.entity, entity_id: entry.entity_id, action: entry.action });
      continue;
    }
    const key = `${entry.entity}\u0000${entry.entity_id}`;
    const list = byRecord.get(key);
    if (list === undefined) byRecord.set(key, [entry]);
    else list.push(entry);
  }
  const records: RecordPlan[] = [];
  for (const list of byRecord.values()) {
    const first = list[0]!;
    const entity = first.entity as RecordEntity;
    const base = {
      entity,
      id: first.entity_id,
      firstSeq: Number(first.seq),
      changeId: list[list.length - 1]!.change_id,
      entries: list.length,
    };
    const born = list.some((e) => e.action === 'created' || e.action === 'imported');
    const deletedAt = list.findLastIndex((e) => e.action === 'deleted');
    if (born) {
      // A tree the changes created is not removed: its history, the revert's own included, would go with it.
      if (entity === 'tree') {
        for (const e of list) skipped.push({ entity: e.entity, entity_id: e.entity_id, action: e.action });
        continue;
      }
      records.push({ ...base, kind: deletedAt >= 0 ? 'none' : 'remove', fields: {} });
      continue;
    }
    if (deletedAt >= 0) {
      const deleted = parsed(list[deletedAt]!.changes);
      if (!holdsRecord(entity, deleted)) {
        for (const e of list) skipped.push({ entity: e.entity, entity_id: e.entity_id, action: e.action });
        continue;
      }
      const fields: Record<string, unknown> = {};
      for (const [field, change] of Object.entries(deleted)) fields[field] = change.from;
      // What earlier entries of the changes set is put back too: the oldest `from` wins.
      for (let i = deletedAt - 1; i >= 0; i--) {
        for (const [field, change] of Object.entries(effectiveChanges(list[i]!))) fields[field] = change.from;
      }
      records.push({ ...base, kind: 'restore', fields });
      continue;
    }
    const fields: Record<string, unknown> = {};
    for (const entry of list) {
      for (const [field, change] of Object.entries(effectiveChanges(entry))) {
        if (!(field in fields)) fields[field] = change.from;
      }
    }
    records.push({ ...base, kind: 'fields', fields });
  }
  return { records, skipped };
}
