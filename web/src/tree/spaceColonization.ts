// space-colonization: Runions et al. 2007, open venation. Attraction points (one per task, one
// bud per project, clustered by project: sectors.ts) pull the closest node within the attraction
// distance; every pulled node grows one segment toward the mean direction; points a node reaches
// within the kill distance are removed and their leaf (or project knot) hangs there.
import { emptySketch, frame, leafAngle, pipeWidth, trunkWidth } from './frame.js';
import { buildModel } from './model.js';
import { closestWithin, indexOf, nearest, type GrowNode } from './nodeIndex.js';
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
  const reached = new Map<string, number>();
  const reach = (a: Attractor, from: number) => {
    nodes.push({ x: a.x, y: a.y, parent: from });
    reached.set(a.id, nodes.length - 1);
  };

  const stepCap = Math.ceil(((outer + LEAF_SPACING) / L) * 3) + 20;
  const { steps, left } = growSteps(nodes, live, reach, stepCap, random);

  // A stalled point (none of the nodes came within reach in time) still gets its leaf.
  const fallbacks = left.length;
  if (left.length > 0) {
    const index = indexOf(nodes, nodes.map((_, i) => i));
    for (const a of left) reach(a, nearest(index, nodes, a, attractionDistance));
  }
  return { layout: draw(nodes, reached, seeded, trunkTop, model.taskCount), steps, stepCap, fallbacks };
}

/**
 * The growth loop: each step every live point pulls its closest node within the attraction
 * distance, or is reached; pulled nodes grow one segment. Returns the steps taken and the points
 * never reached.
 */
function growSteps(nodes: GrowNode[], live: Attractor[], reach: (a: Attractor, from: number) => void, stepCap: number, random: Random) {
  const { segmentLength: L, attractionDistance, killDistance } = SETTINGS;
  // The direction each node last grew in: a node pulled the same way again would only put a
  // duplicate on top of its child (the classic stall of space colonization).
  const grewToward = new Map<number, { dx: number; dy: number }>();
  // Per point: the node it pulled last step, and for how many steps that node came no nearer.
  const pulled = new Int32Array(live.length).fill(-1);
  const waited = new Int32Array(live.length);
  let alive = live.map((_, i) => i);
  // Only nodes within reach of a live point can ever matter again (points are only ever
  // removed), so each step indexes the nodes the last step's queries found plus the new ones.
  const seenAt: number[] = [];
  let active = nodes.map((_, i) => i);
  let steps = 0;
  while (alive.length > 0 && steps < stepCap) {
    steps++;
    const index = indexOf(nodes, active);
    const firstNew = nodes.length;
    const pull = new Map<number, { dx: number; dy: number }>();
    const next: number[] = [];
    for (const i of alive) {
      const a = live[i]!;
      const closest = closestWithin(index, nodes, a, attractionDistance, seenAt, steps);
      if (closest.node < 0) {
        next.push(i);
        continue;
      }
      waited[i] = pulled[i] === closest.node ? waited[i]! + 1 : 0;
      pulled[i] = closest.node;
      // Reached, or caught between rival points so that its node never comes nearer: the twig
      // bridges the rest (at most the attraction distance).
      if (closest.distance <= killDistance || waited[i]! >= STUCK_STEPS) {
        reach(a, closest.node);
        continue;
      }
      next.push(i);
      const dir = pull.get(closest.node) ?? { dx: 0, dy: 0 };
      dir.dx += (a.x - nodes[closest.node]!.x) / closest.distance;
      dir.dy += (a.y - nodes[closest.node]!.y) / closest.distance;
      pull.set(closest.node, dir);
    }
    alive = next;
    for (const [id, dir] of pull) grow(nodes, id, dir, L, random, grewToward);
    active = [];
    for (let i = 0; i < firstNew; i++) if (seenAt[i] === steps) active.push(i);
    for (let i = firstNew; i < nodes.length; i++) active.push(i);
  }
  return { steps, left: alive.map((i) => live[i]!) };
}

function grow(
  nodes: GrowNode[],
  id: number,
  dir: { dx: number; dy: number },
  L: number,
  random: Random,
  grewToward: Map<number, { dx: number; dy: number }>,
) {
  let length = Math.hypot(dir.dx, dir.dy);
  if (length < 1e-6) {
    // Pulled equally from opposite sides: nudge, or the node would grow in place forever.
    const a = random() * Math.PI * 2;
    dir = { dx: Math.cos(a), dy: Math.sin(a) };
    length = 1;
  }
  const unit = { dx: dir.dx / length, dy: dir.dy / length };
  const before = grewToward.get(id);
  if (before && Math.hypot(before.dx - unit.dx, before.dy - unit.dy) < 0.05) return;
  grewToward.set(id, unit);
  const from = nodes[id]!;
  nodes.push({ x: from.x + unit.dx * L, y: from.y + unit.dy * L, parent: id });
}

function draw(nodes: GrowNode[], reached: Map<string, number>, seeded: Attractor[], trunkTop: number, tasks: number) {
  // Pipe model, tips back to the root: a node carries the leaves of everything grown from it
  // (parents are always older than their children, so one backward pass suffices).
  const carried = new Float64Array(nodes.length);
  for (const a of seeded) if (a.kind === 'task') carried[reached.get(a.id)!]! += 1;
  for (let i = nodes.length - 1; i > 0; i--) carried[nodes[i]!.parent]! += carried[i]!;

  const sketch = emptySketch();
  for (let i = 1; i < nodes.length; i++) {
    const n = nodes[i]!;
    const p = nodes[n.parent]!;
    // The trunk tapers as side branches leave it, but stays a trunk even for a bare tree.
    const width = i <= trunkTop ? Math.max(trunkWidth(tasks) * 0.6, pipeWidth(carried[i]!)) : pipeWidth(carried[i]!);
    sketch.branches.push({ x1: p.x, y1: p.y, x2: n.x, y2: n.y, width });
  }
  for (const a of seeded) {
    const i = reached.get(a.id)!;
    const n = nodes[i]!;
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
