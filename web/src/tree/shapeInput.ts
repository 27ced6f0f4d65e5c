// What a tree's card draws: the tree's own shape as GET /tree-shapes gives it (its projects as
// parent indexes, its tasks as project, status and colour indexes, in the drawing's order),
// turned back into the input the layouts take. Positions are the array order and ids are made
// from it, so the model sorts them as it sorts the tree's own records: laid out with the tree's
// id as the seed, a card draws the tree's page's picture, small.
import type { LayoutInput, LayoutProject, LayoutTask, TreeShape } from './types.js';

const STATUS: Record<string, LayoutTask['status']> = { t: 'todo', o: 'open', d: 'done', f: 'deferred' };
const DEFAULT_COLOR = '#6b8e23';

export function shapeInput(shape: TreeShape): LayoutInput {
  const projects: LayoutProject[] = shape.project_parents.map((parent, i) => ({
    id: `p${i}`,
    parent_id: parent >= 0 ? `p${parent}` : null,
    name: '',
    color: DEFAULT_COLOR,
    position: i,
  }));
  const tasks: LayoutTask[] = shape.task_projects.map((project, i) => ({
    id: `t${i}`,
    project_id: project >= 0 ? `p${project}` : null,
    title: '',
    color: shape.colors[shape.task_colors[i] ?? -1] ?? DEFAULT_COLOR,
    status: STATUS[shape.task_statuses[i] ?? 't'] ?? 'todo',
    position: i,
  }));
  return { treeId: shape.tree_id, name: '', projects, tasks };
}
