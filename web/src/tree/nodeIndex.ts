// Radius queries over the grown nodes of space colonization (KDBush, rebuilt each step over the
// nodes that can still matter).
import KDBush from 'kdbush';

export interface GrowNode {
  x: number;
  y: number;
  /** Index of the node this one grew from; -1 for the root. */
  parent: number;
}

/** A KDBush over the given nodes; queries answer node ids through `ids`. */
export interface NodeIndex {
  tree: KDBush;
  ids: number[];
  /** Reused for every query's results: no array per query. */
  found: Uint32Array;
}

export function indexOf(nodes: GrowNode[], ids: number[]): NodeIndex {
  const tree = new KDBush(Math.max(ids.length, 1));
  for (const id of ids) tree.add(nodes[id]!.x, nodes[id]!.y);
  if (ids.length === 0) tree.add(Infinity, Infinity);
  return { tree: tree.finish(), ids, found: new Uint32Array(Math.max(ids.length, 1)) };
}

export function closestWithin(
  index: NodeIndex,
  nodes: GrowNode[],
  p: { x: number; y: number },
  radius: number,
  seenAt?: number[],
  step = 0,
) {
  let node = -1;
  let best = Infinity;
  const count = index.tree.withinInto(p.x, p.y, radius, index.found);
  for (let j = 0; j < count; j++) {
    const id = index.ids[index.found[j]!];
    if (id === undefined) continue;
    if (seenAt) seenAt[id] = step;
    const dx = nodes[id]!.x - p.x;
    const dy = nodes[id]!.y - p.y;
    const d = dx * dx + dy * dy;
    // Ties go to the older node, so the result never depends on KDBush's internal order.
    if (d < best || (d === best && id < node)) {
      node = id;
      best = d;
    }
  }
  return { node, distance: Math.sqrt(best) };
}

export function nearest(index: NodeIndex, nodes: GrowNode[], p: { x: number; y: number }, startRadius: number): number {
  for (let r = startRadius; ; r *= 2) {
    const found = closestWithin(index, nodes, p, r);
    if (found.node >= 0) return found.node;
  }
}
