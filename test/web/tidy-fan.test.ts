// tidy-fan is a real tidy tree (Buchheim, via d3-hierarchy) read radially from the top of the
// trunk: siblings keep their sorted order by angle, parents sit inside their children's fan
// and nearer the trunk than their children.
import { describe, expect, it } from 'vitest';
import { byPosition } from '../../web/src/tree/model.js';
import { layoutTidyFan } from '../../web/src/tree/tidyFan.js';
import type { Layout, LayoutInput } from '../../web/src/tree/types.js';
import { sampleTree } from './sample-tree.js';

/** Polar position of every node around the fan's centre, the top of the trunk. */
function polar(layout: Layout) {
  const trunk = layout.branches[0]!;
  const at = new Map<string, { angle: number; radius: number }>();
  for (const n of [...layout.projects, ...layout.leaves]) {
    const dx = n.x - trunk.x2;
    const dy = trunk.y2 - n.y;
    at.set(n.id, { angle: Math.atan2(dx, dy), radius: Math.hypot(dx, dy) });
  }
  return at;
}

function childrenOf(input: LayoutInput, parent: string | null) {
  const projects = input.projects.filter((p) => p.parent_id === parent).sort(byPosition);
  const tasks = input.tasks.filter((t) => t.project_id === parent && t.status !== 'archived').sort(byPosition);
  return { projects, tasks };
}

const increasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

describe('tidy-fan', () => {
  for (const [name, input] of [
    ['20 tasks', sampleTree({ projects: 4, tasks: 20 })],
    ['nested, 200 tasks', sampleTree({ projects: 10, tasks: 200, nestEvery: 3 })],
    ['1,000 tasks', sampleTree({ projects: 20, tasks: 1000 })],
  ] as const) {
    it(`keeps siblings in sorted order by angle and parents nearer the trunk (${name})`, () => {
      const at = polar(layoutTidyFan(input));
      for (const parent of [null, ...input.projects.map((p) => p.id)]) {
        const { projects, tasks } = childrenOf(input, parent);
        expect(increasing(projects.map((p) => at.get(p.id)!.angle))).toBe(true);
        expect(increasing(tasks.map((t) => at.get(t.id)!.angle))).toBe(true);
        if (parent === null) continue;
        const self = at.get(parent)!;
        const children = [...tasks, ...projects].map((c) => at.get(c.id)!);
        for (const c of children) expect(c.radius).toBeGreaterThan(self.radius);
        if (children.length > 0) {
          // Buchheim centres a parent over its first and last child.
          const angles = children.map((c) => c.angle);
          expect(self.angle).toBeCloseTo((Math.min(...angles) + Math.max(...angles)) / 2, 2);
        }
      }
    });
  }

  it('fans upward: no node below the top of the trunk by more than a ring', () => {
    const layout = layoutTidyFan(sampleTree({ projects: 20, tasks: 1000 }));
    const at = polar(layout);
    for (const { angle } of at.values()) expect(Math.abs(angle)).toBeLessThanOrEqual((85 * Math.PI) / 180 + 1e-6);
  });

  it('thickens branches toward the trunk, by what they carry', () => {
    const layout = layoutTidyFan(sampleTree({ projects: 20, tasks: 1000 }));
    const widest = Math.max(...layout.branches.map((b) => b.width));
    expect(layout.branches[0]!.width).toBe(widest);
    // Twigs to single leaves are the thinnest.
    expect(Math.min(...layout.branches.map((b) => b.width))).toBeLessThan(1);
  });
});
