// What every drawing style promises (CONTRACT §15, issue 14 point 3): the same data always
// draws the same picture, whatever the order of the arrays; every task and project is placed
// and archived tasks are not; everything lies inside the viewBox; leaves never overlap.
import { describe, expect, it } from 'vitest';
import { layoutTree } from '../../web/src/tree/layout.js';
import { TREE_STYLES, type LayoutInput } from '../../web/src/tree/types.js';
import {
  closestLeaves,
  expectEverythingPlaced,
  expectInsideViewBox,
  expectLeavesApart,
  shuffled,
} from './layout-checks.js';
import { sampleTree } from './sample-tree.js';

const small = sampleTree({ projects: 4, tasks: 20 });
const nested = sampleTree({ projects: 10, tasks: 200, nestEvery: 3 });
const large = sampleTree({ projects: 20, tasks: 1000 });
// Lopsided shapes: one big project, only loose tasks, a deep chain of nested projects.
const oneProject = sampleTree({ projects: 1, tasks: 500 });
const loose = sampleTree({ projects: 0, tasks: 300 });
const deep = sampleTree({ projects: 12, tasks: 120, nestEvery: 12 });

/** Odd but possible data: a parent we were not given, a parent cycle, a task of an unknown project. */
const odd: LayoutInput = {
  treeId: 'odd',
  name: 'Odd',
  projects: [
    { id: 'a', parent_id: 'missing', name: 'A', color: '#ff0000', position: 1 },
    { id: 'b', parent_id: 'c', name: 'B', color: '#00ff00', position: 2 },
    { id: 'c', parent_id: 'b', name: 'C', color: '#0000ff', position: 3 },
  ],
  tasks: [
    { id: 't1', project_id: 'gone', title: 'T1', color: 'not a colour', status: 'todo', position: 0 },
    { id: 't2', project_id: 'b', title: 'T2', color: '#123456', status: 'done', position: 0 },
    { id: 't3', project_id: 'c', title: 'T3', color: '#123456', status: 'archived', position: 0 },
    { id: 't4', project_id: 'c', title: 'T4', color: '#123456', status: 'open', position: 0 },
  ],
};

describe.each(TREE_STYLES)('%s', (style) => {
  it('draws the same picture for the same data, in any order', () => {
    for (const input of [small, nested, large]) {
      const first = layoutTree(input, style);
      expect(layoutTree(structuredClone(input), style)).toEqual(first);
      expect(layoutTree(shuffled(input), style)).toEqual(first);
    }
  });

  it('draws another picture for another tree id', () => {
    // Seeded from the tree id: tidy-fan has no randomness, the other two vary per tree.
    const other = layoutTree({ ...nested, treeId: 'another-tree' }, style);
    if (style === 'tidy-fan') expect(other).toEqual(layoutTree(nested, style));
    else expect(other).not.toEqual(layoutTree(nested, style));
  });

  it('places every project and every task but the archived ones, inside the viewBox', () => {
    for (const input of [small, nested, large, oneProject, loose, deep, odd]) {
      const layout = layoutTree(input, style);
      expectEverythingPlaced(input, layout);
      expectInsideViewBox(layout);
    }
    expect(layoutTree(odd, style).leaves.map((l) => l.id)).not.toContain('t3');
  });

  it('keeps leaves apart, up to 1,000 tasks', () => {
    for (const input of [small, nested, large, oneProject, loose, deep]) expectLeavesApart(layoutTree(input, style));
  });

  it('draws an empty tree as a bare trunk', () => {
    const layout = layoutTree({ treeId: 'empty', name: 'Empty', projects: [], tasks: [] }, style);
    expect(layout.leaves).toEqual([]);
    expect(layout.projects).toEqual([]);
    expect(layout.branches.length).toBeGreaterThan(0);
    for (const b of layout.branches) {
      expect(b.x1).toBe(layout.width / 2);
      expect(b.x2).toBe(layout.width / 2);
    }
    expectInsideViewBox(layout);
  });

  it('draws projects without tasks and tasks without projects', () => {
    const bare: LayoutInput = {
      treeId: 'bare',
      name: 'Bare',
      projects: [1, 2, 3].map((i) => ({
        id: `p${i}`,
        parent_id: i === 3 ? 'p2' : null,
        name: `P${i}`,
        color: '#2e933c',
        position: i,
      })),
      tasks: [1, 2].map((i) => ({
        id: `t${i}`,
        project_id: null,
        title: `T${i}`,
        color: '#e4572e',
        status: 'todo' as const,
        position: i,
      })),
    };
    const layout = layoutTree(bare, style);
    expectEverythingPlaced(bare, layout);
    expectInsideViewBox(layout);
    expect(closestLeaves(layout)).toBeGreaterThan(0);
  });
});
