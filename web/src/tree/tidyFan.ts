// tidy-fan: Buchheim's linear-time tidy tree (d3-hierarchy `tree()`) of trunk → projects → tasks,
// read radially (x an angle, y a radius) and fanned upward from the top of the trunk.
import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import { emptySketch, frame, heading, leafAngle, pipeWidth, trunkWidth, type Sketch } from './frame.js';
import { buildModel, type ModelNode } from './model.js';
import { LEAF_SPACING, type LayoutInput, type LayoutTask } from './types.js';

interface FanNode {
  id: string;
  project: ModelNode | null;
  task: LayoutTask | null;
  children: FanNode[];
  /**
   * Ring offset: 0 for projects, 1 and up for tasks, so a task never shares a ring with a project
   * beside it; staggering many sibling tasks over several rings lets the fan stay small.
   */
  tier: number;
}

/**
 * Many sibling tasks are staggered over a few rings, like leaves along a twig, so the fan needs a
 * smaller radius: about 0.8 times the square root of their number, at most MAX_TIERS.
 */
const MAX_TIERS = 8;
const tiersFor = (tasks: number) => Math.min(MAX_TIERS, Math.max(1, Math.round(Math.sqrt(tasks) * 0.8)));

function toFanTree(root: ModelNode): FanNode {
  const fanOf = (node: ModelNode): FanNode => ({ id: node.id, project: node, task: null, children: [], tier: 0 });
  const top = fanOf(root);
  const stack: [ModelNode, FanNode][] = [[root, top]];
  while (stack.length > 0) {
    const [node, fan] = stack.pop()!;
    // A project's own tasks first, then its sub-projects: the same order as the keyboard walk.
    node.tasks.forEach((task) => {
      fan.children.push({ id: task.id, project: null, task, children: [], tier: 1 });
    });
    for (const child of node.children) {
      const childFan = fanOf(child);
      fan.children.push(childFan);
      stack.push([child, childFan]);
    }
  }
  return top;
}

/**
 * Staggers the tasks of each ring over rings 1..T in angular order, across parents, so that two
 * tasks on one ring are always T neighbours apart; T grows with the largest sibling group.
 */
function stagger(nodes: HierarchyPointNode<FanNode>[]) {
  const byDepth = new Map<number, HierarchyPointNode<FanNode>[]>();
  const largest = new Map<number, number>();
  for (const n of nodes) {
    if (n.data.task === null) continue;
    const ring = byDepth.get(n.depth);
    if (ring) ring.push(n);
    else byDepth.set(n.depth, [n]);
    const siblings = n.parent!.data.project!.tasks.length;
    largest.set(n.depth, Math.max(largest.get(n.depth) ?? 0, siblings));
  }
  for (const [depth, ring] of byDepth) {
    const tiers = tiersFor(largest.get(depth)!);
    ring.sort((a, b) => a.x - b.x);
    ring.forEach((n, i) => (n.data.tier = 1 + (i % tiers)));
  }
}

/**
 * The smallest fan radius at which no two nodes of one ring come closer than LEAF_SPACING:
 * neighbours on a ring (same depth and tier) are a chord apart, different rings at least a
 * ring step apart.
 */
function radiusFor(nodes: HierarchyPointNode<FanNode>[], height: number, fan: number): number {
  const tiers = Math.max(...nodes.map((n) => n.data.tier + 1));
  let radius = LEAF_SPACING * (tiers + 1) * Math.max(height, 1) * 1.2;
  const rings = new Map<string, number[]>();
  for (const n of nodes) {
    if (n.depth === 0) continue;
    const key = `${n.depth}:${n.data.tier}`;
    const ring = rings.get(key);
    if (ring) ring.push(n.x);
    else rings.set(key, [n.x]);
  }
  for (const [key, xs] of rings) {
    const depth = Number(key.split(':')[0]);
    xs.sort((a, b) => a - b);
    for (let i = 1; i < xs.length; i++) {
      const chord = 2 * (depth / height) * Math.sin((fan * (xs[i]! - xs[i - 1]!)) / 2);
      if (chord > 0) radius = Math.max(radius, (LEAF_SPACING * 1.05) / chord);
    }
  }
  return radius;
}

const LINK_STEPS = { project: 6, task: 2 };

export function layoutTidyFan(input: LayoutInput) {
  const model = buildModel(input);
  const root = hierarchy(toFanTree(model.root), (d) => d.children);
  const layout = tree<FanNode>()
    .size([1, 1])
    // The radial separation of d3-hierarchy's src/tree.js: deeper rings are longer, so siblings
    // there need a smaller angle; cousins get twice the gap so projects read as groups.
    .separation((a, b) => (a.parent === b.parent ? 1 : 2) / a.depth)(root);
  const nodes = layout.descendants();
  stagger(nodes);
  const height = Math.max(layout.height, 1);
  const widest = Math.max(...[...countByDepth(nodes).values()], 1);
  const fan = (Math.min(170, 50 + 12 * widest) * Math.PI) / 180;
  const radius = radiusFor(nodes, height, fan);
  const trunk = Math.max(60, radius * 0.3);

  const sketch: Sketch = emptySketch();
  sketch.branches.push({ x1: 0, y1: 0, x2: 0, y2: -trunk, width: trunkWidth(model.taskCount) });
  const theta = (n: HierarchyPointNode<FanNode>) => (n.x - 0.5) * fan;
  const rho = (n: HierarchyPointNode<FanNode>) => (n.depth / height) * radius + n.data.tier * LEAF_SPACING;
  const at = (t: number, r: number) => {
    const h = heading(t);
    return { x: r * h.dx, y: -trunk + r * h.dy };
  };

  for (const n of nodes) {
    if (!n.parent) continue;
    const t1 = theta(n);
    const r1 = rho(n);
    const t0 = n.parent.depth === 0 ? t1 : theta(n.parent);
    const r0 = rho(n.parent);
    const isTask = n.data.task !== null;
    const steps = isTask ? LINK_STEPS.task : LINK_STEPS.project;
    const width = isTask ? 0.8 : pipeWidth(n.data.project!.weight);
    // Leave the parent outward first, then sweep to the child's angle: the radial link shape.
    let prev = at(t0, r0);
    for (let s = 1; s <= steps; s++) {
      const u = s / steps;
      const ease = u * u * (3 - 2 * u);
      const next = at(t0 + (t1 - t0) * ease, r0 + (r1 - r0) * u);
      sketch.branches.push({ x1: prev.x, y1: prev.y, x2: next.x, y2: next.y, width });
      prev = next;
    }
    if (isTask) sketch.leaves.push({ id: n.data.id, x: prev.x, y: prev.y, angle: leafAngle(t1) });
    else sketch.projects.push({ id: n.data.id, x: prev.x, y: prev.y });
  }
  return frame(sketch);
}

function countByDepth(nodes: HierarchyPointNode<FanNode>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const n of nodes) counts.set(n.depth, (counts.get(n.depth) ?? 0) + 1);
  return counts;
}
