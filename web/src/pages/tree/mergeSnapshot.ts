import type { TreeSnapshot } from '../../api/types';

/** Two readings of one record hold the same values (arrays such as assignee_ids by content). */
function sameRecord(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(y);
  if (Object.keys(x).length !== keys.length) return false;
  return keys.every(
    (k) =>
      x[k] === y[k] || (typeof x[k] === 'object' && x[k] !== null && JSON.stringify(x[k]) === JSON.stringify(y[k])),
  );
}

export interface Merged {
  snapshot: TreeSnapshot;
  /** Tasks new in this reading, and tasks whose values changed. */
  added: string[];
  changed: string[];
  /** False when a record under edit was held back: the reading is not wholly shown. */
  complete: boolean;
}

/** Keeps `old`'s objects for what did not change, so the list and drawing redraw only what did. */
function mergeList<T extends { id: string }>(
  old: readonly T[],
  next: readonly T[],
  keep: ReadonlySet<string>,
): { list: T[]; same: boolean; added: string[]; changed: string[]; held: boolean } {
  const before = new Map(old.map((x) => [x.id, x]));
  const added: string[] = [];
  const changed: string[] = [];
  let held = false;
  const list = next.map((item) => {
    const was = before.get(item.id);
    if (was === undefined) {
      added.push(item.id);
      return item;
    }
    if (sameRecord(was, item)) return was;
    // The person is editing it: their panel keeps the version they started from, so a save
    // meets the 412 dialog (CONTRACT §16.2) instead of overwriting what they have not seen.
    if (keep.has(item.id)) {
      held = true;
      return was;
    }
    changed.push(item.id);
    return item;
  });
  // Gone meanwhile, but open with unsaved edits: it stays until the person leaves it (a save then says why).
  const present = new Set(next.map((x) => x.id));
  for (const id of keep) {
    const was = before.get(id);
    if (was !== undefined && !present.has(id)) {
      list.push(was);
      held = true;
    }
  }
  const same = list.length === old.length && list.every((x, i) => x === old[i]);
  return { list: same ? (old as T[]) : list, same, added, changed, held };
}

/**
 * A fresh reading of the tree merged into the one shown: the same snapshot object when nothing
 * changed (no redraw at all), else a new one that reuses every unchanged project and task.
 * `keep` names records being edited, which stay as the person saw them.
 */
export function mergeSnapshot(old: TreeSnapshot, next: TreeSnapshot, keep: ReadonlySet<string>): Merged {
  const tasks = mergeList(old.tasks, next.tasks, keep);
  const projects = mergeList(old.projects, next.projects, keep);
  const treeSame = sameRecord(old.tree, next.tree);
  const complete = !tasks.held && !projects.held;
  const snapshot =
    tasks.same && projects.same && treeSame
      ? old
      : { ...old, tree: treeSame ? old.tree : next.tree, projects: projects.list, tasks: tasks.list };
  return { snapshot, added: tasks.added, changed: tasks.changed, complete };
}
