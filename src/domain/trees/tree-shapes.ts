import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { requireRead } from '../actor.js';
import { inVisibleTrees, visibleTrees } from '../access.js';
import { checkId } from '../fields.js';
import { invalid } from '../errors.js';
import {
  shapeProjects,
  shapeTrees,
  shapeTasks,
  type ShapeProjectRow,
  type ShapeTaskRow,
} from '../../store/tree-shapes.js';
import { compactShape, evenSample, SHAPE_PROJECTS_READ, SHAPE_TASKS_MAX, type TreeShape } from './tree-shape.js';

/** A big tree's sample is read a quarter larger than drawn, then trimmed evenly to SHAPE_TASKS_MAX. */
const OVERSAMPLE = 1.25;

/** One request draws a page of cards: at most this many trees. */
export const SHAPE_TREES_MAX = 100;

/** `ids` as the query has it: comma-separated, 1 to SHAPE_TREES_MAX distinct ids. */
export function parseShapeIds(text: string): string[] {
  const ids = text.split(',');
  if (ids.length > SHAPE_TREES_MAX) throw invalid('/ids', `must name 1 to ${SHAPE_TREES_MAX} trees`);
  for (const id of ids) checkId('/ids', id);
  if (new Set(ids).size !== ids.length) throw invalid('/ids', 'must not repeat an id');
  return ids;
}

/**
 * The shapes of these trees' drawings (tree-shape.ts), in the order asked, for the trees among them
 * the actor can see now (a tree-scoped credential: only its trees). A tree it cannot see, or that
 * no longer exists, is left out, as a list leaves it out: nothing tells the two apart. Four
 * statements for the page (the actor's trees, these trees, their projects, their tasks), whatever
 * the trees' sizes: each tree reads about 1.25 × SHAPE_TASKS_MAX task rows (a bigger tree's sample
 * is read range by range from an index, SHAPE_WINDOWS_MAX ranges at most), its archived tasks'
 * index entries (its drawn count is its task_count less those) and SHAPE_PROJECTS_READ project rows.
 */
export async function treeShapes(deps: Deps, actor: Actor, ids: string[]): Promise<TreeShape[]> {
  requireRead(actor);
  const visible = await visibleTrees(deps.db, actor);
  const trees = await shapeTrees(deps.db, ids, inVisibleTrees(visible, 'id', 'r'));
  const counts = new Map(trees.map((t) => [t.id, t.drawn]));
  const sources = trees.map((t) => ({
    ...t,
    every: t.drawn <= SHAPE_TASKS_MAX ? 1 : Math.max(1, Math.floor(t.drawn / (SHAPE_TASKS_MAX * OVERSAMPLE))),
  }));
  const [projects, tasks] = await Promise.all([
    shapeProjects(deps.db, trees, SHAPE_PROJECTS_READ),
    shapeTasks(deps.db, sources),
  ]);
  const projectsOf = groupByTree(projects);
  const tasksOf = groupByTree(tasks);
  const seen = new Set(trees.map((t) => t.id));
  return ids
    .filter((id) => seen.has(id))
    .map((id) =>
      compactShape(
        id,
        projectsOf.get(id) ?? [],
        evenSample(tasksOf.get(id) ?? [], SHAPE_TASKS_MAX),
        counts.get(id) ?? 0,
      ),
    );
}

function groupByTree<T extends ShapeProjectRow | ShapeTaskRow>(rows: T[]): Map<string, T[]> {
  const byTree = new Map<string, T[]>();
  for (const row of rows) {
    const list = byTree.get(row.tree_id);
    if (list) list.push(row);
    else byTree.set(row.tree_id, [row]);
  }
  return byTree;
}
