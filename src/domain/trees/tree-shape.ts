/**
 * A tree's shape for its card on the Trees page (CONTRACT §18): the structure its drawing is laid
 * out from, and nothing else (no names, titles or texts). Projects and tasks are sent as indexes in
 * the order the drawing's model sorts them (web/src/tree/model.ts: position, then id), so a card
 * laid out from the shape with the same seeded code draws what the tree's own page draws. Pure.
 */
import type { ShapeProjectRow, ShapeTaskRow } from '../../store/tree-shapes.js';

/** A card draws at most this many leaves: a tree of 50,000 tasks is drawn from an even sample. */
export const SHAPE_TASKS_MAX = 200;
/** ...and at most this many branches: the first ones from the trunk outward. */
export const SHAPE_PROJECTS_MAX = 60;
/** Projects read per tree to choose them from (creation order); beyond, a task hangs on the trunk. */
export const SHAPE_PROJECTS_READ = 1_000;

export const SHAPE_STATUS_LETTERS = { todo: 't', open: 'o', done: 'd', deferred: 'f' } as const;

export interface TreeShape {
  tree_id: string;
  /** The tree's tasks that are not archived, and its projects: the drawing may show fewer. */
  task_count: number;
  project_count: number;
  /** Index of each drawn project's parent in this list (always earlier), -1 for the trunk. */
  project_parents: number[];
  /** Index of each drawn task's project in project_parents, -1 for the trunk. */
  task_projects: number[];
  /** One letter per drawn task: t todo, o open, d done, f deferred. */
  task_statuses: string;
  /** Index of each drawn task's colour in `colors`. */
  task_colors: number[];
  colors: string[];
}

function byPosition(a: { position: number; id: string }, b: { position: number; id: string }): number {
  if (a.position !== b.position) return a.position - b.position;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The projects in the order to send them: breadth-first from the trunk, siblings sorted as the
 * drawing sorts them, so any prefix holds each project's parent; a project whose parent was not
 * read hangs from the trunk, and a parent cycle (which the API refuses) from the trunk at its
 * first member, as the drawing's model does.
 */
function projectOrder(projects: ShapeProjectRow[]): ShapeProjectRow[] {
  const sorted = [...projects].sort(byPosition);
  const known = new Set(sorted.map((p) => p.id));
  const childrenOf = new Map<string, ShapeProjectRow[]>();
  for (const p of sorted) {
    const key = p.parent_id !== null && known.has(p.parent_id) ? p.parent_id : '';
    const list = childrenOf.get(key);
    if (list) list.push(p);
    else childrenOf.set(key, [p]);
  }
  const order: ShapeProjectRow[] = [];
  const seen = new Set<string>();
  const walk = (start: readonly ShapeProjectRow[]) => {
    const queue = [...start];
    for (const p of start) seen.add(p.id);
    for (let i = 0; i < queue.length; i++) {
      const p = queue[i]!;
      order.push(p);
      for (const child of childrenOf.get(p.id) ?? []) {
        if (seen.has(child.id)) continue;
        seen.add(child.id);
        queue.push(child);
      }
    }
  };
  walk(childrenOf.get('') ?? []);
  for (const p of sorted) if (!seen.has(p.id)) walk([p]);
  return order;
}

/**
 * Exactly `max` of the rows (all when there are no more), spread evenly over them in (status,
 * seq) order, so the sample keeps each status's share of the tree.
 */
export function evenSample(rows: ShapeTaskRow[], max: number): ShapeTaskRow[] {
  if (rows.length <= max) return rows;
  const sorted = [...rows].sort((a, b) => (a.status !== b.status ? (a.status < b.status ? -1 : 1) : a.seq - b.seq));
  const m = sorted.length;
  // The i-th row starts a new one of `max` equal slices.
  return sorted.filter((_, i) => Math.floor(((i + 1) * max) / m) > Math.floor((i * max) / m));
}

/** One tree's shape from the rows read for it (shapeProjects, shapeTasks) and its count of drawn tasks. */
export function compactShape(
  treeId: string,
  projects: ShapeProjectRow[],
  tasks: ShapeTaskRow[],
  taskCount: number,
): TreeShape {
  const order = projectOrder(projects);
  const kept = order.slice(0, SHAPE_PROJECTS_MAX);
  const indexOf = new Map(kept.map((p, i) => [p.id, i]));
  const parentOf = new Map(projects.map((p) => [p.id, p.parent_id]));
  // A kept project's parent is kept too (a prefix of a breadth-first order), unless it hangs from the trunk.
  const project_parents = kept.map((p) => {
    const parent = p.parent_id === null ? undefined : indexOf.get(p.parent_id);
    const index = indexOf.get(p.id)!;
    // A parent later in the order closes a parent cycle: that member hangs from the trunk.
    return parent === undefined || parent >= index ? -1 : parent;
  });
  // A task of a project not drawn hangs from its nearest drawn ancestor (or the trunk).
  const drawnOwner = new Map<string, number>();
  const ownerOf = (projectId: string | null): number => {
    if (projectId === null) return -1;
    const known = drawnOwner.get(projectId);
    if (known !== undefined) return known;
    const path: string[] = [];
    let id: string | null | undefined = projectId;
    let owner = -1;
    while (id !== null && id !== undefined && path.length <= projects.length) {
      const index = indexOf.get(id);
      if (index !== undefined) {
        owner = index;
        break;
      }
      path.push(id);
      id = parentOf.get(id);
    }
    for (const step of path) drawnOwner.set(step, owner);
    return owner;
  };
  const colors: string[] = [];
  const colorIndex = new Map<string, number>();
  const task_projects: number[] = [];
  const task_colors: number[] = [];
  let task_statuses = '';
  for (const task of [...tasks].sort(byPosition)) {
    task_projects.push(ownerOf(task.project_id));
    let color = colorIndex.get(task.color);
    if (color === undefined) {
      color = colors.push(task.color) - 1;
      colorIndex.set(task.color, color);
    }
    task_colors.push(color);
    task_statuses += SHAPE_STATUS_LETTERS[task.status as keyof typeof SHAPE_STATUS_LETTERS] ?? 't';
  }
  return {
    tree_id: treeId,
    task_count: taskCount,
    project_count: projects[0]?.total ?? 0,
    project_parents,
    task_projects,
    task_statuses,
    task_colors,
    colors,
  };
}
