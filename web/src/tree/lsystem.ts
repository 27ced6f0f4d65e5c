// lsystem: the tree's data becomes the productions of a parametric L-system. The axiom is one
// bud A for the trunk; each rewrite opens the buds of one level of project nesting (so the word
// is rewritten to the nesting depth + 1), and a project's bud becomes its branch: a bare stretch
// with a few decorative twigs (X, which fork further on every later rewrite), the project's knot
// K, its tasks as leaves L on alternate sides, then its sub-projects fanned out within its cone.
// A turtle (turtle.ts) turns the word into segments.
import { frame, pipeWidth, trunkWidth } from './frame.js';
import { buildModel, type ModelNode, type TreeModel } from './model.js';
import { between, makeRandom, type Random } from './prng.js';
import { iterate, type Module, type Productions } from './rewriter.js';
import { interpret } from './turtle.js';
import { LEAF_SPACING as S, type Layout, type LayoutInput, type LayoutTask } from './types.js';

/** The word grows geometrically with the rewrites: deeper nesting is opened inline at the last. */
export const MAX_REWRITES = 6;
/** A stem carries at most this many leaves; more tasks split into several stems. */
const STEM_TASKS = 60;
const STEP = 0.75 * S;
const PETIOLE = 0.9 * S;
const CROWN_DEGREES = 176;

const F = (value: number, width: number): Module => ({ symbol: 'F', value, width });
const turn = (degrees: number): Module => ({ symbol: degrees >= 0 ? '+' : '-', value: Math.abs(degrees) });
const PUSH: Module = { symbol: '[' };
const POP: Module = { symbol: ']' };

/**
 * How far a stem in a cone of `degrees` must run bare before its first leaf, so that leaves
 * (a petiole plus half a spacing to either side of it) stay inside its cone, clear of its
 * neighbours' cones. `offset` is the cone's centre seen from the stem: the nearer edge counts.
 */
function clearance(degrees: number, offset = 0): number {
  const half = Math.min(((degrees / 2 - Math.abs(offset)) * Math.PI) / 180, Math.PI / 2);
  return Math.max(2 * S, (1.6 * S) / Math.sin(half));
}

/** Leaves on alternate sides of a stem, its width tapering as it passes them (pipe model). */
function leafStem(tasks: LayoutTask[], carried: number, random: Random): Module[] {
  const out: Module[] = [];
  tasks.forEach((task, i) => {
    out.push(F(STEP, pipeWidth(carried - i)));
    const side = i % 2 === 0 ? 1 : -1;
    out.push(PUSH, turn(side * between(random, 50, 62)), F(PETIOLE, 0.8), { symbol: 'L', id: task.id }, POP);
  });
  return out;
}

/** A bare stretch of a stem, with a twig bud or two on long ones. */
function bareStem(length: number, width: number, random: Random): Module[] {
  if (length < 3 * S) return [F(length, width)];
  const buds = length < 8 * S ? 1 : 2;
  const out: Module[] = [];
  let side = random() < 0.5 ? 1 : -1;
  for (let i = 0; i < buds; i++) {
    const bud: Module = { symbol: 'X', value: Math.min(length * 0.18, 4 * S) * between(random, 0.7, 1.1) };
    out.push(F(length / (buds + 1), width), PUSH, turn(side * between(random, 28, 48)), bud, POP);
    side = -side;
  }
  out.push(F(length / (buds + 1), width));
  return out;
}

interface Part {
  weight: number;
  node: ModelNode | null;
  tasks: LayoutTask[];
}

/** What fans out at the end of a stem: sub-projects, and the node's own tasks if too many for one stem. */
function partsOf(node: ModelNode): Part[] {
  const parts: Part[] = node.children.map((c) => ({ weight: c.weight, node: c, tasks: [] }));
  if (node.tasks.length > STEM_TASKS || (node.project === null && node.tasks.length > 0)) {
    // Stems of even length: a short last stem would get a narrow cone and a long bare run.
    const stems = Math.ceil(node.tasks.length / STEM_TASKS);
    const size = Math.ceil(node.tasks.length / stems);
    const chunks: Part[] = [];
    for (let i = 0; i < node.tasks.length; i += size) {
      const tasks = node.tasks.slice(i, i + size);
      chunks.push({ weight: tasks.length, node: null, tasks });
    }
    parts.splice(Math.floor(parts.length / 2), 0, ...chunks);
  }
  return parts;
}

/** Past this many parts, a fan gathers them on limbs, about the square root of their number. */
const LIMBS_FROM = 6;
const LIMB = 6 * S;

function limbsOf(parts: Part[]): Part[][] {
  if (parts.length <= LIMBS_FROM) return parts.map((p) => [p]);
  const count = Math.round(Math.sqrt(parts.length));
  const limbs: Part[][] = [];
  for (let i = 0; i < count; i++) {
    limbs.push(parts.slice(Math.round((i * parts.length) / count), Math.round(((i + 1) * parts.length) / count)));
  }
  return limbs;
}

export function buildLSystem(model: TreeModel, random: Random) {
  const rewrites = Math.min(model.depth + 1, MAX_REWRITES);
  const byId = new Map(model.nodes.map((n) => [n.id, n]));

  // One part's stem, in a cone of `share` degrees whose centre lies `coneOffset` from its heading.
  const partStem = (part: Part, share: number, coneOffset: number, inline: boolean): Module[] => {
    if (part.node === null) {
      return [
        ...bareStem(clearance(share, coneOffset), pipeWidth(part.weight), random),
        ...leafStem(part.tasks, part.weight, random),
      ];
    }
    if (inline) return projectStem(part.node, share, coneOffset, true);
    return [{ symbol: 'A', id: part.node.id, value: share, offset: coneOffset }];
  };

  // The fan at a stem's end. Cones are relative to the turtle's heading: [offset ± degrees/2].
  // Each part gets a share by the square root of what it carries; a lone part keeps the whole
  // cone but bends to one side within it, so a chain of nested projects zigzags instead of
  // running on straight or narrowing its cone level by level. Many parts are gathered on a few
  // limbs, each fanning its parts out from its end within its own share of the cone: the
  // crown branches like a tree instead of bursting from one point.
  const fanOut = (node: ModelNode, degrees: number, offset: number, inline: boolean): Module[] => {
    const parts = partsOf(node);
    if (parts.length === 1) {
      const bend = (random() < 0.5 ? -1 : 1) * Math.min(degrees / 4, 24) * between(random, 0.5, 1);
      return [PUSH, turn(offset + bend), ...partStem(parts[0]!, degrees, -bend, inline), POP];
    }
    const total = parts.reduce((sum, p) => sum + Math.sqrt(p.weight) + 1, 0);
    const shareOf = (p: Part) => ((Math.sqrt(p.weight) + 1) / total) * degrees;
    const out: Module[] = [];
    let at = offset - degrees / 2;
    for (const limb of limbsOf(parts)) {
      const cone = limb.reduce((sum, p) => sum + shareOf(p), 0);
      const heading = at + cone / 2;
      out.push(PUSH, turn(heading));
      if (limb.length > 1) {
        const weight = limb.reduce((sum, p) => sum + p.weight, 0);
        // Long enough to read as a limb beside the bare runs of the stems it carries.
        const length = Math.max(LIMB, 0.45 * clearance(cone / limb.length));
        out.push(F(length * between(random, 0.85, 1.15), pipeWidth(weight)));
      }
      let partAt = -cone / 2;
      for (const part of limb) {
        const share = shareOf(part);
        if (limb.length > 1) out.push(PUSH, turn(partAt + share / 2));
        out.push(...partStem(part, share, 0, inline));
        if (limb.length > 1) out.push(POP);
        partAt += share;
      }
      out.push(POP);
      at += cone;
    }
    return out;
  };

  const projectStem = (node: ModelNode, degrees: number, offset: number, inline: boolean): Module[] => {
    // A project with no tasks anywhere below has no leaves to keep clear: a short shoot.
    const out =
      node.weight === 0 ? [F(2 * S, 1)] : bareStem(clearance(degrees, offset), pipeWidth(node.weight), random);
    out.push({ symbol: 'K', id: node.id });
    const own = node.tasks.length <= STEM_TASKS ? node.tasks : [];
    out.push(...leafStem(own, node.weight, random));
    // Sub-projects fan out even when empty: every project gets its branch.
    if (partsOf(node).length > 0) {
      out.push(F(2 * S, pipeWidth(node.weight - own.length)), ...fanOut(node, degrees, offset, inline));
    }
    return out;
  };

  const productions: Productions = {
    A: ({ module, iteration }) => {
      const node = byId.get(module.id!)!;
      // At the last rewrite, nesting deeper than the cap opens inline, so every task is placed.
      const inline = iteration === rewrites;
      if (node.project !== null) return projectStem(node, module.value!, module.offset ?? 0, inline);
      const trunk = Math.max(60, 4 * Math.sqrt(model.taskCount) * S * 0.25);
      return [F(trunk, trunkWidth(model.taskCount)), ...fanOut(node, CROWN_DEGREES, 0, inline)];
    },
    // A twig bud forks (or, now and then, only bends) and buds again, a little shorter.
    X: ({ module, random: r }) => {
      const length = module.value!;
      if (length < S / 2) return [F(length, 0.8)];
      const bud = (): Module => ({ symbol: 'X', value: length * 0.62 });
      const left = [PUSH, turn(-between(r, 18, 34)), bud(), POP];
      const right = [PUSH, turn(between(r, 18, 34)), bud(), POP];
      const fork = r() < 0.3 ? (r() < 0.5 ? left : right) : [...left, ...right];
      return [F(length, Math.min(2, 0.6 + length / (2 * S))), ...fork];
    },
  };
  return { axiom: [{ symbol: 'A', id: '' }] as Module[], productions, rewrites };
}

export function lsystemWord(input: LayoutInput): Module[] {
  const random = makeRandom(`lsystem:${input.treeId}`);
  const { axiom, productions, rewrites } = buildLSystem(buildModel(input), random);
  return iterate(axiom, productions, rewrites, random);
}

export function layoutLSystem(input: LayoutInput): Layout {
  return frame(interpret(lsystemWord(input)));
}
