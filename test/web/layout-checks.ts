// Checks every layout must pass, shared by the per-style tests.
import KDBush from 'kdbush';
import { expect } from 'vitest';
import { LEAF_SPACING, type Layout, type LayoutInput } from '../../web/src/tree/types.js';

/** Same arrays, reversed and rotated: a layout must not depend on the order it was given. */
export function shuffled(input: LayoutInput): LayoutInput {
  const rotate = <T>(xs: T[]) =>
    [...xs.slice(Math.floor(xs.length / 3)), ...xs.slice(0, Math.floor(xs.length / 3))].reverse();
  return { ...input, projects: rotate(input.projects), tasks: rotate(input.tasks) };
}

export function expectEverythingPlaced(input: LayoutInput, layout: Layout) {
  const visible = input.tasks.filter((t) => t.status !== 'archived').map((t) => t.id);
  expect(layout.leaves.map((l) => l.id).sort()).toEqual(visible.sort());
  expect(layout.projects.map((p) => p.id).sort()).toEqual(input.projects.map((p) => p.id).sort());
}

export function expectInsideViewBox(layout: Layout) {
  const points = [
    ...layout.branches.flatMap((b) => [
      [b.x1, b.y1],
      [b.x2, b.y2],
    ]),
    ...layout.projects.map((p) => [p.x, p.y]),
    ...layout.leaves.map((l) => [l.x, l.y]),
  ];
  // One assertion over all values: thousands of expect() calls would make the test slow.
  const numbers = [
    layout.width,
    layout.height,
    ...layout.branches.map((b) => b.width),
    ...layout.leaves.map((l) => l.angle),
    ...points.flat(),
  ];
  expect(numbers.filter((v) => !Number.isFinite(v))).toEqual([]);
  expect(points.filter(([x, y]) => !(x! >= 0 && x! <= layout.width && y! >= 0 && y! <= layout.height))).toEqual([]);
  // The trunk comes first and stands at the bottom centre.
  const trunk = layout.branches[0]!;
  expect(trunk.x1).toBeCloseTo(layout.width / 2, 1);
  expect(Math.max(...points.map(([, y]) => y!))).toBeCloseTo(trunk.y1, 5);
}

/** The closest two leaf centres (KDBush radius queries), or Infinity. */
export function closestLeaves(layout: Layout): number {
  const index = new KDBush(Math.max(layout.leaves.length, 1));
  for (const l of layout.leaves) index.add(l.x, l.y);
  if (layout.leaves.length === 0) index.add(0, 0);
  index.finish();
  let closest = Infinity;
  layout.leaves.forEach((l, i) => {
    for (const j of index.within(l.x, l.y, LEAF_SPACING * 2)) {
      if (j !== i) closest = Math.min(closest, Math.hypot(layout.leaves[j]!.x - l.x, layout.leaves[j]!.y - l.y));
    }
  });
  return closest;
}

export function expectLeavesApart(layout: Layout) {
  // Coordinates are rounded to 0.01, so allow that much.
  expect(closestLeaves(layout)).toBeGreaterThanOrEqual(LEAF_SPACING - 0.02);
}
