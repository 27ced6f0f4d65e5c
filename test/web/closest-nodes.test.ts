// ClosestNodes answers, for every attraction point, what a scan of all nodes offered so far would
// (the closest within the radius, a tie to the older node), while each node only visits the points
// around it once. Compared here with that scan on clustered points, coincident nodes and nodes far
// outside the points' grid.
import { describe, expect, it } from 'vitest';
import { ClosestNodes } from '../../web/src/tree/closestNodes.js';
import { makeRandom } from '../../web/src/tree/prng.js';

type P = { x: number; y: number };

function scan(point: P, nodes: P[], radius: number): number {
  let best = Infinity;
  let found = -1;
  nodes.forEach((n, id) => {
    const d = (n.x - point.x) ** 2 + (n.y - point.y) ** 2;
    if (d <= radius * radius && d < best) {
      best = d;
      found = id;
    }
  });
  return found;
}

describe('ClosestNodes', () => {
  it('agrees with a scan of every node after each batch of new nodes', () => {
    const random = makeRandom('closest-nodes');
    const radius = 60;
    const points: P[] = Array.from({ length: 400 }, () => ({ x: (random() - 0.5) * 900, y: -random() * 700 }));
    const closest = new ClosestNodes(points, radius);
    const nodes: P[] = [];
    for (let batch = 0; batch < 30; batch++) {
      for (let k = 0; k < 40; k++) {
        // Some nodes on a coarse lattice (so that ties happen), some well outside the points.
        const x =
          batch % 5 === 0 ? Math.round((random() - 0.5) * 2000) : Math.round(((random() - 0.5) * 1000) / 10) * 10;
        const y = batch % 5 === 0 ? Math.round(-random() * 1500 + 300) : Math.round((-random() * 800) / 10) * 10;
        nodes.push({ x, y });
        closest.offer(nodes.length - 1, x, y);
      }
      for (let i = 0; i < points.length; i++) {
        const expected = scan(points[i]!, nodes, radius);
        expect(closest.node[i], `point ${i} after batch ${batch}`).toBe(expected);
        if (expected >= 0)
          expect(closest.distance2[i]).toBe(
            (nodes[expected]!.x - points[i]!.x) ** 2 + (nodes[expected]!.y - points[i]!.y) ** 2,
          );
      }
    }
    const woken = new Set(closest.woken);
    for (let i = 0; i < points.length; i++) expect(woken.has(i)).toBe(closest.node[i] !== -1);
  });

  it('offers nothing to a removed point, and keeps the older node on a tie', () => {
    const closest = new ClosestNodes(
      [
        { x: 0, y: 0 },
        { x: 100, y: 0 },
      ],
      10,
    );
    closest.offer(0, 3, 4);
    closest.offer(1, -3, -4);
    expect(closest.node[0]).toBe(0);
    closest.remove(1);
    closest.offer(2, 100, 1);
    expect(closest.node[1]).toBe(-1);
    expect(closest.isRemoved(1)).toBe(true);
    closest.offer(3, 0, 1);
    expect(closest.node[0]).toBe(3);
    expect(closest.distance2[0]).toBe(1);
  });
});
