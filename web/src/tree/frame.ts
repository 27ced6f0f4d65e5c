// Shared geometry of the three layouts: they draw in "tree space" (the trunk's foot at 0,0,
// up is -y, as in SVG) and frame() moves the picture into the viewBox with the root at the
// bottom centre.
import { LEAF_LENGTH, type Branch, type Layout, type PlacedLeaf, type PlacedProject } from './types.js';

export interface Sketch {
  branches: Branch[];
  projects: PlacedProject[];
  leaves: PlacedLeaf[];
}

export function emptySketch(): Sketch {
  return { branches: [], projects: [], leaves: [] };
}

/** Room under the trunk's foot for the ground line. */
const GROUND = 14;
const MARGIN = LEAF_LENGTH + 6;

/**
 * Pipe model (da Vinci's rule, as in Runions et al.): a branch's cross-section area is the sum of
 * what it carries, so its width grows with the square root of the leaves above it.
 */
export function pipeWidth(leaves: number): number {
  return 1 + 1.1 * Math.sqrt(Math.max(leaves, 0));
}

export function trunkWidth(taskCount: number): number {
  return Math.max(4, pipeWidth(taskCount));
}

/** A unit vector for a heading measured from "up", clockwise, in radians. */
export function heading(theta: number): { dx: number; dy: number } {
  return { dx: Math.sin(theta), dy: -Math.cos(theta) };
}

/** The leaf's `angle` (degrees clockwise from "right", SVG rotate) for a heading from "up". */
export function leafAngle(theta: number): number {
  return (theta * 180) / Math.PI - 90;
}

const round = (v: number) => Math.round(v * 100) / 100;

/** Moves a sketch into the viewBox: the root at (width/2, height - GROUND), everything inside. */
export function frame(sketch: Sketch): Layout {
  let halfWidth = 0;
  let top = 0;
  let bottom = 0;
  const see = (x: number, y: number, pad: number) => {
    halfWidth = Math.max(halfWidth, Math.abs(x) + pad);
    top = Math.min(top, y - pad);
    bottom = Math.max(bottom, y + pad);
  };
  for (const b of sketch.branches) {
    see(b.x1, b.y1, b.width / 2);
    see(b.x2, b.y2, b.width / 2);
  }
  for (const p of sketch.projects) see(p.x, p.y, MARGIN);
  for (const l of sketch.leaves) see(l.x, l.y, MARGIN);

  const width = round(2 * (halfWidth + MARGIN));
  const dx = width / 2;
  const dy = -top + MARGIN;
  const height = round(dy + Math.max(bottom, 0) + GROUND);
  const X = (x: number) => round(x + dx);
  const Y = (y: number) => round(y + dy);
  return {
    branches: sketch.branches.map((b) => ({
      x1: X(b.x1),
      y1: Y(b.y1),
      x2: X(b.x2),
      y2: Y(b.y2),
      width: round(b.width),
    })),
    projects: sketch.projects.map((p) => ({ id: p.id, x: X(p.x), y: Y(p.y) })),
    leaves: sketch.leaves.map((l) => ({ id: l.id, x: X(l.x), y: Y(l.y), angle: round(((l.angle % 360) + 360) % 360) })),
    width,
    height,
  };
}
