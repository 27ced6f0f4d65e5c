import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { requireRead } from '../actor.js';
import { inVisibleTrees, visibleTrees } from '../access.js';
import { checkId } from '../fields.js';
import { invalid } from '../errors.js';
import { shapeProjects, shapeTasks, type ShapeProjectRow, type ShapeTaskRow } from '../../store/tree-shapes.js';
import { compactShape, SHAPE_PROJECTS_READ, SHAPE_TASKS_MAX, type TreeShape } from './tree-shape.js';

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
 * no longer exists, is left out, as a list leaves it out: nothing tells the two apart. Three
 * statements for the page, whatever the trees' sizes: each tree reads at most SHAPE_TASKS_MAX
 * task rows and SHAPE_PROJECTS_READ project rows.
 */
export async function treeShapes(deps: Deps, actor: Actor, ids: string[]): Promise<TreeShape[]> {
  requireRead(actor);
  const visible = await visibleTrees(deps.db, actor);
  const rows = await deps.db
    .selectFrom('trees')
    .select(['id', 'owner_id'])
    .where('id', 'in', ids)
    .where(inVisibleTrees(visible, 'id'))
    .execute();
  const trees = rows.map((row) => ({ id: row.id, ownerId: row.owner_id }));
  const [projects, tasks] = await Promise.all([
    shapeProjects(deps.db, trees, SHAPE_PROJECTS_READ),
    shapeTasks(deps.db, trees, SHAPE_TASKS_MAX),
  ]);
  const projectsOf = groupByTree(projects);
  const tasksOf = groupByTree(tasks);
  const seen = new Set(trees.map((t) => t.id));
  return ids
    .filter((id) => seen.has(id))
    .map((id) => compactShape(id, projectsOf.get(id) ?? [], tasksOf.get(id) ?? []));
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
