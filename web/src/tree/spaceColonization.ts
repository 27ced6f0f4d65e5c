// space-colonization: Runions et al. 2007, open venation. Attraction points (one per task, one
// bud per project, clustered by project: sectors.ts) pull the closest node within the attraction
// distance; every pulled node grows one segment toward the mean direction; points a node reaches
// within the kill distance are removed and their leaf (or project knot) hangs there.
import { emptySketch, frame, leafAngle, pipeWidth, trunkWidth } from './frame.js';
import { buildModel } from './model.js';
import { ClosestNodes } from './closestNodes.js';
import { indexOf, nearest, type GrowNode } from './nodeIndex.js';
import { makeRandom, type Random } from './prng.js';
import { seedAttractors, type Attractor } from './sectors.js';
import { LEAF_SPACING, type Layout, type LayoutInput } from './types.js';

/** One shared settings object (jasonwebb's Defaults.js, scaled to our leaf spacing). */
export const SETTINGS = {
  segmentLength: LEAF_SPACING * 0.75,
  attractionDistance: LEAF_SPACING * 5,
  killDistance: LEAF_SPACING * 0.9,
  /** The crown fans over this angle, wider than a half circle: a rounded crown. */
  fan: (220 * Math.PI) / 180,
};

/** Steps a point may pull one node that never comes nearer before a twig bridges the gap. */
const STUCK_STEPS = 3;

export interface Colonized {
  layout: Layout;
  /** Growth steps taken, never more than `stepCap`. */
  steps: number;
  stepCap: number;
  /** Attraction points never reached, joined to their nearest node after the last step. */
  fallbacks: number;
}

export function layoutSpaceColonization(input: LayoutInput): Layout {
  return colonize(input).layout;
}

export function colonize(input: LayoutInput): Colonized {
  const model = buildModel(input);
  const random = makeRandom(`space-colonization:${input.treeId}`);
  const { segmentLength: L, attractionDistance, fan } = SETTINGS;
  const { attractors: seeded, outer } = seedAttractors(model, random, fan, LEAF_SPACING * 2.5);
  // A crown wider than a half circle hangs below its centre: the trunk lifts it clear of the ground.
  const trunk = Math.max(60, outer * Math.max(0, -Math.cos(fan / 2)) + LEAF_SPACING * 3);
  const live: Attractor[] = seeded.map((a) => ({ ...a, y: a.y - trunk }));

  const nodes: GrowNode[] = [{ x: 0, y: 0, parent: -1 }];
  for (let y = -L; y > -trunk; y -= L) nodes.push({ x: 0, y, parent: nodes.length - 1 });
  nodes.push({ x: 0, y: -trunk, parent: nodes.length - 1 });
  const trunkTop = nodes.length - 1;
  // Per attraction point (by index), the node its leaf or knot hangs at.
  const reached = new Int32Array(live.length).fill(-1);
  const reach = (point: number, from: number) => {
    nodes.push({ x: live[point]!.x, y: live[point]!.y, parent: from });
    reached[point] = nodes.length - 1;
  };

  const stepCap = Math.ceil(((outer + LEAF_SPACING) / L) * 3) + 20;
  const { steps, left } = growSteps(nodes, live, reach, stepCap, random);

  // A stalled point (none of the nodes came within reach in time) still gets its leaf.
  const fallbacks = left.length;
  if (left.length > 0) {
    const index = indexOf(
      nodes,
      nodes.map((_, i) => i),
    );
    for (const i of left) reach(i, nearest(index, nodes, live[i]!, attractionDistance));
  }
  return { layout: draw(nodes, reached, seeded, trunkTop, model.taskCount), steps, stepCap, fallbacks };
}

/**
 * The growth loop: each step every live point pulls its closest node within the attraction
 * distance, or is reached; pulled nodes grow one segment. Returns the steps taken and the points
 * (indexes into `live`) never reached.
 */
function growSteps(
  nodes: GrowNode[],
  live: Attractor[],
  reach: (point: number, from: number) => void,
  stepCap: number,
  random: Random,
) {
  const { segmentLength: L, attractionDistance, killDistance } = SETTINGS;
  // Per point: the node it pulled last step, and for how many steps that node came no nearer.
  const pulled = new Int32Array(live.length).fill(-1);
  const waited = new Int32Array(live.length);
  // Each point's closest node, updated as nodes are made (a node made during a step, a leaf
  // or a new segment, counts from the next step, as in the paper's simultaneous growth).
  const closest = new ClosestNodes(live, attractionDistance);
  // Per node (plain arrays that grow with `nodes`; ten thousands of small objects and Map
  // entries were most of the loop's time): the pull summed this step, the step it was last
  // pulled in, and the direction it last grew in (a node pulled the same way again would only
  // put a duplicate on top of its child: the classic stall of space colonization).
  const pullX: number[] = [];
  const pullY: number[] = [];
  const pulledAt: number[] = [];
  const grewX: number[] = [];
  const grewY: number[] = [];
  const offerNew = () => {
    for (let id = pullX.length; id < nodes.length; id++) {
      closest.offer(id, nodes[id]!.x, nodes[id]!.y);
      pullX.push(0);
      pullY.push(0);
      pulledAt.push(0);
      grewX.push(NaN);
      grewY.push(NaN);
    }
  };
  // The points that have a node within reach and are not reached yet, in index order (the
  // order the paper's single pass over all points sums the pulls in). A point with no node within
  // reach does nothing in a step, so it waits outside the list until a node comes near.
  let active = new Int32Array(live.length);
  let activeCount = 0;
  const wake = () => {
    const woken = closest.woken.sort((a, b) => a - b);
    if (woken.length === 0) return;
    const merged = new Int32Array(live.length);
    let m = 0;
    let j = 0;
    for (let k = 0; k < activeCount; k++) {
      while (j < woken.length && woken[j]! < active[k]!) merged[m++] = woken[j++]!;
      merged[m++] = active[k]!;
    }
    while (j < woken.length) merged[m++] = woken[j++]!;
    active = merged;
    activeCount = m;
    woken.length = 0;
  };
  offerNew();
  wake();
  let unreached = live.length;
  let steps = 0;
  // Once no point has a node within reach, no step can change anything: stop there.
  while (activeCount > 0 && steps < stepCap) {
    steps++;
    // The pulled nodes in the order of their first pull this step: the order they grow in.
    const growing: number[] = [];
    let kept = 0;
    for (let k = 0; k < activeCount; k++) {
      const i = active[k]!;
      const a = live[i]!;
      const node = closest.node[i]!;
      const distance = Math.sqrt(closest.distance2[i]!);
      waited[i] = pulled[i] === node ? waited[i]! + 1 : 0;
      pulled[i] = node;
      // Reached, or caught between rival points so that its node never comes nearer: the twig
      // bridges the rest (at most the attraction distance).
      if (distance <= killDistance || waited[i]! >= STUCK_STEPS) {
        reach(i, node);
        closest.remove(i);
        unreached--;
        continue;
      }
      active[kept++] = i;
      if (pulledAt[node] !== steps) {
        pulledAt[node] = steps;
        pullX[node] = 0;
        pullY[node] = 0;
        growing.push(node);
      }
      pullX[node]! += (a.x - nodes[node]!.x) / distance;
      pullY[node]! += (a.y - nodes[node]!.y) / distance;
    }
    activeCount = kept;
    for (const id of growing) {
      let dx = pullX[id]!;
      let dy = pullY[id]!;
      let length = Math.hypot(dx, dy);
      if (length < 1e-6) {
        // Pulled equally from opposite sides: nudge, or the node would grow in place forever.
        const angle = random() * Math.PI * 2;
        dx = Math.cos(angle);
        dy = Math.sin(angle);
        length = 1;
      }
      const ux = dx / length;
      const uy = dy / length;
      if (Math.hypot(grewX[id]! - ux, grewY[id]! - uy) < 0.05) continue;
      grewX[id] = ux;
      grewY[id] = uy;
      nodes.push({ x: nodes[id]!.x + ux * L, y: nodes[id]!.y + uy * L, parent: id });
    }
    offerNew();
    wake();
  }
  const left: number[] = [];
  if (unreached > 0) for (let i = 0; i < live.length; i++) if (!closest.isRemoved(i)) left.push(i);
  return { steps, left };
}

function draw(nodes: GrowNode[], reached: Int32Array, seeded: Attractor[], trunkTop: number, tasks: number) {
  // Pipe model, tips back to the root: a node carries the leaves of everything grown from it
  // (parents are always older than their children, so one backward pass suffices).
  const carried = new Float64Array(nodes.length);
  for (let i = 0; i < seeded.length; i++) if (seeded[i]!.kind === 'task') carried[reached[i]!]! += 1;
  for (let i = nodes.length - 1; i > 0; i--) carried[nodes[i]!.parent]! += carried[i]!;

  const sketch = emptySketch();
  const trunkMin = trunkWidth(tasks) * 0.6;
  // Segments from the root outward, depth first, so that each one mostly starts where the one
  // before it ended: the painter then draws runs of twigs as one subpath (paint.ts) instead of
  // one per segment, as in the order they grew in (half the path text, a third of the subpaths
  // to stroke at 10,000 tasks). Children in the order they grew, so the order is deterministic.
  for (const i of depthFirst(nodes)) {
    const n = nodes[i]!;
    const p = nodes[n.parent]!;
    // The trunk tapers as side branches leave it, but stays a trunk even for a bare tree.
    const width = i <= trunkTop ? Math.max(trunkMin, pipeWidth(carried[i]!)) : pipeWidth(carried[i]!);
    sketch.branches.push({ x1: p.x, y1: p.y, x2: n.x, y2: n.y, width });
  }
  for (let i = 0; i < seeded.length; i++) {
    const a = seeded[i]!;
    const n = nodes[reached[i]!]!;
    if (a.kind === 'project') {
      sketch.projects.push({ id: a.id, x: n.x, y: n.y });
      continue;
    }
    // The leaf points away from the twig that reached it.
    const p = nodes[n.parent]!;
    const theta = Math.atan2(n.x - p.x, -(n.y - p.y));
    sketch.leaves.push({ id: a.id, x: n.x, y: n.y, angle: leafAngle(theta) });
  }
  return frame(sketch);
}

/** Every node but the root, parents before children, each subtree whole before its next sibling. */
function depthFirst(nodes: GrowNode[]): Int32Array {
  // Children lists as one array (counting sort by parent), each in the order the children grew.
  const start = new Int32Array(nodes.length + 1);
  for (let i = 1; i < nodes.length; i++) start[nodes[i]!.parent + 1]!++;
  for (let i = 0; i < nodes.length; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, nodes.length);
  const children = new Int32Array(Math.max(nodes.length - 1, 0));
  for (let i = 1; i < nodes.length; i++) children[fill[nodes[i]!.parent]!++] = i;

  const order = new Int32Array(Math.max(nodes.length - 1, 0));
  let out = 0;
  const stack = new Int32Array(nodes.length);
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const node = stack[--top]!;
    if (node !== 0) order[out++] = node;
    // Pushed last child first, so the first child comes out first.
    for (let k = start[node + 1]! - 1; k >= start[node]!; k--) stack[top++] = children[k]!;
  }
  return order;
}
