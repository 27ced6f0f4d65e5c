import type { ProjectRow, TaskRow } from '../../store/rows.js';
import { presentProject, presentTask } from '../records.js';
import type { Changes, HistoryEntryInput } from './history.js';

/**
 * A deleted record's history entry holds every field of the record as `{from: value, to: null}`
 * (CONTRACT §16.3), so a revert can bring it back with its id and fields.
 */
function everyField(record: object): Changes {
  return Object.fromEntries(Object.entries(record).map(([field, value]) => [field, { from: value, to: null }]));
}

export function deletedTaskEntry(ownerId: string, row: TaskRow): HistoryEntryInput {
  return {
    ownerId,
    treeId: row.tree_id,
    entity: 'task',
    entityId: row.id,
    action: 'deleted',
    changes: everyField(presentTask(row)),
  };
}

export function deletedProjectEntry(ownerId: string, row: ProjectRow): HistoryEntryInput {
  return {
    ownerId,
    treeId: row.tree_id,
    entity: 'project',
    entityId: row.id,
    action: 'deleted',
    changes: everyField(presentProject(row)),
  };
}

/**
 * The entries of a cascade delete, one per removed record, in the order a revert undoes them
 * backwards: tasks first, then projects from the deepest up, the root last (so undoing newest
 * first restores projects before what they hold).
 */
export function cascadeEntries(ownerId: string, projects: ProjectRow[], tasks: TaskRow[]): HistoryEntryInput[] {
  const parentOf = new Map(projects.map((p) => [p.id, p.parent_id]));
  const depth = (id: string): number => {
    let n = 0;
    const seen = new Set<string>();
    for (let at = parentOf.get(id); at != null && parentOf.has(at) && !seen.has(at); at = parentOf.get(at)) {
      seen.add(at);
      n++;
    }
    return n;
  };
  const deepestFirst = projects
    .map((p) => ({ p, d: depth(p.id) }))
    .sort((a, b) => b.d - a.d)
    .map(({ p }) => p);
  return [
    ...tasks.map((t) => deletedTaskEntry(ownerId, t)),
    ...deepestFirst.map((p) => deletedProjectEntry(ownerId, p)),
  ];
}
