// A tree's card (CONTRACT §18) draws the tree's own shape: the server's compact shape, read back by
// the app and laid out by the same seeded code, paints exactly the tree page's picture.
import { describe, expect, it } from 'vitest';
import { compactShape, evenSample, SHAPE_PROJECTS_MAX, SHAPE_TASKS_MAX } from '../../src/domain/trees/tree-shape.js';
import type { ShapeProjectRow, ShapeTaskRow } from '../../src/store/tree-shapes.js';
import { layoutTree } from '../../web/src/tree/layout.js';
import { paintLeaves } from '../../web/src/tree/leafPaint.js';
import { branchPaths } from '../../web/src/tree/paint.js';
import { shapeInput } from '../../web/src/tree/shapeInput.js';
import { TREE_STYLES, type LayoutInput, type TreeStyle } from '../../web/src/tree/types.js';
import { sampleTree } from './sample-tree.js';

/** What the store hands the domain for a tree: its projects, and its tasks that are not archived. */
function rowsOf(input: LayoutInput): { projects: ShapeProjectRow[]; tasks: ShapeTaskRow[] } {
  const drawn = input.tasks.filter((t) => t.status !== 'archived');
  return {
    projects: input.projects.map((p) => ({
      tree_id: input.treeId,
      id: p.id,
      parent_id: p.parent_id,
      position: p.position,
      total: input.projects.length,
    })),
    tasks: drawn.map((t, seq) => ({
      tree_id: input.treeId,
      id: t.id,
      project_id: t.project_id,
      status: t.status,
      color: t.color,
      position: t.position,
      seq,
    })),
  };
}

/** The picture as painted: branch paths and leaf paint, which carry every coordinate. */
function painted(input: LayoutInput, style: TreeStyle) {
  const layout = layoutTree(input, style);
  return {
    branches: branchPaths(layout.branches),
    leaves: paintLeaves(layout.leaves, new Map(input.tasks.map((t) => [t.id, t]))),
    knots: layout.projects.map((p) => [p.x, p.y]),
    size: [layout.width, layout.height],
  };
}

/** Shuffled as a database may return rows: the shape must not depend on it. */
const reversed = <T>(xs: T[]) => [...xs].reverse();

describe('a tree’s card shape', () => {
  const trees = [
    sampleTree({ projects: 12, tasks: 150, nestEvery: 3, treeId: 'tre_cards1' }),
    sampleTree({ projects: 0, tasks: 40, treeId: 'tre_cards2' }),
    sampleTree({ projects: 30, tasks: 190, nestEvery: 4, treeId: 'tre_cards3' }),
  ];

  it.each(TREE_STYLES)('paints the tree page’s picture, %s', (style) => {
    for (const input of trees) {
      const { projects, tasks } = rowsOf(input);
      const shape = compactShape(input.treeId, reversed(projects), reversed(tasks), tasks.length);
      expect(shape.task_projects).toHaveLength(tasks.length);
      expect(shape.project_parents).toHaveLength(input.projects.length);
      // Sent without a word of the tree: no names, titles or ids of its records.
      expect(JSON.stringify(shape)).not.toMatch(/Task |Project |"t\d{5}"|"p\d{3}"/);
      expect(painted(shapeInput(JSON.parse(JSON.stringify(shape))), style)).toEqual(painted(input, style));
    }
  });

  it('keeps a parent before its children, and a cycle on the trunk', () => {
    const projects: ShapeProjectRow[] = [
      { tree_id: 'x', id: 'c', parent_id: 'b', position: 0, total: 5 },
      { tree_id: 'x', id: 'b', parent_id: 'a', position: 1, total: 5 },
      { tree_id: 'x', id: 'a', parent_id: null, position: 2, total: 5 },
      { tree_id: 'x', id: 'y', parent_id: 'z', position: 3, total: 5 },
      { tree_id: 'x', id: 'z', parent_id: 'y', position: 4, total: 5 },
    ];
    const shape = compactShape('x', projects, [], 0);
    expect(shape.project_parents).toEqual([-1, 0, 1, -1, 3]);
  });

  it('draws a huge tree from its sample, its first branches and the rest on their nearest drawn ancestor', () => {
    const chain: ShapeProjectRow[] = Array.from({ length: SHAPE_PROJECTS_MAX + 10 }, (_, i) => ({
      tree_id: 'x',
      id: `p${i}`,
      parent_id: i === 0 ? null : `p${i - 1}`,
      position: i,
      total: SHAPE_PROJECTS_MAX + 10,
    }));
    const deepest = chain.at(-1)!.id;
    const read: ShapeTaskRow[] = Array.from({ length: SHAPE_TASKS_MAX * 2 + 7 }, (_, i) => ({
      tree_id: 'x',
      id: `t${i}`,
      project_id: i % 2 === 0 ? deepest : null,
      status: i % 4 === 0 ? 'done' : 'todo',
      color: i % 3 === 0 ? '#2b6cb0' : '#6b8e23',
      position: i,
      seq: i * 3,
    }));
    // The read sample, trimmed evenly: the drawn count exactly, each status's share kept.
    const tasks = evenSample(read, SHAPE_TASKS_MAX);
    expect(tasks).toHaveLength(SHAPE_TASKS_MAX);
    const shape = compactShape('x', chain, tasks, 50_000);
    expect(shape.project_parents).toHaveLength(SHAPE_PROJECTS_MAX);
    expect(shape.task_count).toBe(50_000);
    expect(shape.project_count).toBe(SHAPE_PROJECTS_MAX + 10);
    expect(new Set(shape.task_projects)).toEqual(new Set([SHAPE_PROJECTS_MAX - 1, -1]));
    expect([...shape.colors].sort()).toEqual(['#2b6cb0', '#6b8e23']);
    const doneRead = read.filter((t) => t.status === 'done').length / read.length;
    expect(Math.abs(shape.task_statuses.replace(/t/g, '').length - doneRead * SHAPE_TASKS_MAX)).toBeLessThanOrEqual(1);
    expect(layoutTree(shapeInput(shape), 'tidy-fan').leaves).toHaveLength(SHAPE_TASKS_MAX);
  });
});
