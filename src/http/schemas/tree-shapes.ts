import { Type } from '@sinclair/typebox';
import { SHAPE_PROJECTS_MAX, SHAPE_TASKS_MAX } from '../../domain/trees/tree-shape.js';
import { SHAPE_TREES_MAX } from '../../domain/trees/tree-shapes.js';

/** GET /tree-shapes: the trees whose cards are drawn. */
export const TreeShapesQuery = Type.Object({
  ids: Type.String({
    minLength: 1,
    // Within a request line Node accepts (16 KiB of headers): the service's tree ids are 30 characters.
    maxLength: 8_192,
    description: `1 to ${SHAPE_TREES_MAX} tree ids, comma-separated, no repeats (at most 8,192 characters)`,
  }),
});

const Index = (description: string) => Type.Array(Type.Integer({ minimum: -1 }), { description });

export const TreeShape = Type.Object(
  {
    tree_id: Type.String(),
    task_count: Type.Integer({ minimum: 0, description: "the tree's tasks that are not archived" }),
    project_count: Type.Integer({ minimum: 0, description: "the tree's projects" }),
    project_parents: Index(
      `Per drawn project (at most ${SHAPE_PROJECTS_MAX}, breadth-first from the trunk, siblings by position then id): ` +
        'the index of its parent in this array, always smaller, or -1 when it grows from the trunk. A project not drawn lends its tasks to its nearest drawn ancestor.',
    ),
    task_projects: Index(
      `Per drawn task (all when the tree has at most ${SHAPE_TASKS_MAX}, else an even sample of ${SHAPE_TASKS_MAX} ` +
        'keeping the share of each status), by position then id: the index of its project in project_parents, or -1 for the trunk.',
    ),
    task_statuses: Type.String({
      pattern: '^[todf]*$',
      description: 'One letter per drawn task, in the order of task_projects: t todo, o open, d done, f deferred.',
    }),
    task_colors: Type.Array(Type.Integer({ minimum: 0 }), {
      description: 'Per drawn task: the index of its color in colors.',
    }),
    colors: Type.Array(Type.String(), { description: 'The task colors used, each once.' }),
  },
  {
    $id: 'TreeShape',
    title: 'TreeShape',
    description:
      "What a tree's card on the Trees page draws: its drawing's structure without names, titles or texts; " +
      'laid out by the same seeded code as the tree, with positions taken as the array order.',
  },
);

export const TreeShapes = Type.Object({
  items: Type.Array(TreeShape, {
    description: 'In the order asked; trees that do not exist or that the credential cannot see are left out.',
  }),
});
