// space-colonization follows Runions et al. 2007: growth in bounded steps toward attraction
// points, each leaf hanging at the node that reached its point, one connected tree thickened
// from the tips back to the root.
import { describe, expect, it } from 'vitest';
import { colonize, SETTINGS } from '../../web/src/tree/spaceColonization.js';
import type { Branch, Layout } from '../../web/src/tree/types.js';
import { sampleTree } from './sample-tree.js';

const key = (x: number, y: number) => `${x},${y}`;

/** The branch ending at each point: a segment's parent is the one ending where it starts. */
function parents(layout: Layout): Map<string, Branch> {
  return new Map(layout.branches.map((b) => [key(b.x2, b.y2), b]));
}

const inputs = [
  ['20 tasks', sampleTree({ projects: 4, tasks: 20 })],
  ['nested, 200 tasks', sampleTree({ projects: 10, tasks: 200, nestEvery: 3 })],
  ['1,000 tasks', sampleTree({ projects: 20, tasks: 1000 })],
] as const;

describe.each(inputs)('space-colonization, %s', (_name, input) => {
  const grown = colonize(input);
  const { layout } = grown;
  const root = layout.branches[0]!;

  it('grows in a bounded number of steps, every point reached by growth', () => {
    expect(grown.steps).toBeGreaterThan(1);
    expect(grown.steps).toBeLessThanOrEqual(grown.stepCap);
    expect(grown.fallbacks).toBe(0);
  });

  it('hangs each leaf at a grown node, at most the attraction distance from where it branched', () => {
    const ends = parents(layout);
    for (const leaf of layout.leaves) {
      const twig = ends.get(key(leaf.x, leaf.y));
      expect(twig, leaf.id).toBeDefined();
      expect(Math.hypot(twig!.x2 - twig!.x1, twig!.y2 - twig!.y1)).toBeLessThanOrEqual(
        SETTINGS.attractionDistance + 0.05,
      );
    }
  });

  it('is one tree: every segment chains back to the root', () => {
    const ends = parents(layout);
    const connected = new Set([key(root.x1, root.y1)]);
    const loose: string[] = [];
    for (const b of layout.branches) {
      // Walk toward the root until a point already known to reach it; a cycle or a gap fails.
      const path: string[] = [];
      let at: Branch | undefined = b;
      while (at && !connected.has(key(at.x1, at.y1)) && path.length <= layout.branches.length) {
        path.push(key(at.x1, at.y1));
        at = ends.get(key(at.x1, at.y1));
      }
      if (at && connected.has(key(at.x1, at.y1))) for (const p of path) connected.add(p);
      else loose.push(key(b.x1, b.y1));
    }
    expect(loose).toEqual([]);
  });

  it('thickens from the tips back to the root (pipe model)', () => {
    const ends = parents(layout);
    for (const b of layout.branches) {
      const parent = ends.get(key(b.x1, b.y1));
      if (parent) expect(parent.width).toBeGreaterThanOrEqual(b.width);
    }
    expect(root.width).toBe(Math.max(...layout.branches.map((b) => b.width)));
  });
});
