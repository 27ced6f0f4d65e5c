// Space colonization's attraction points: one per task (and one bud per project), thrown as
// darts into an annular slice of the crown per project, so each project grows its own cluster
// around its own direction from the trunk. Nested projects take the slice beyond their parent.
import type { ModelNode, TreeModel } from './model.js';
import { between, type Random } from './prng.js';
import { LEAF_SPACING } from './types.js';

export interface Attractor {
  x: number;
  y: number;
  /** Task id, or project id for a bud. */
  id: string;
  kind: 'task' | 'project';
}

/** Crown area per attractor: well below the jamming density of random darts (about 1.44 S²). */
const AREA_PER_POINT = 2.4 * LEAF_SPACING * LEAF_SPACING;
const TRIES = 40;

/**
 * A grid of cell LEAF_SPACING: is any accepted point closer than LEAF_SPACING? Cells are keyed by
 * a number, not a "x,y" string: nine string keys per dart were most of the seeding's time.
 */
class SpacingGrid {
  /** Per cell, its points' coordinates, x and y in turn. */
  private cells = new Map<number, number[]>();
  /** Cell rows apart in the key: far more columns than any crown has (a 10,000-task crown is about 150). */
  private static readonly ROW = 1 << 20;
  private static key(cx: number, cy: number): number {
    return cy * SpacingGrid.ROW + cx;
  }
  free(x: number, y: number): boolean {
    const cx = Math.floor(x / LEAF_SPACING);
    const cy = Math.floor(y / LEAF_SPACING);
    for (let i = cx - 1; i <= cx + 1; i++)
      for (let j = cy - 1; j <= cy + 1; j++) {
        const cell = this.cells.get(SpacingGrid.key(i, j));
        if (!cell) continue;
        for (let k = 0; k < cell.length; k += 2)
          if ((cell[k]! - x) ** 2 + (cell[k + 1]! - y) ** 2 < LEAF_SPACING * LEAF_SPACING) return false;
      }
    return true;
  }
  add(x: number, y: number) {
    const key = SpacingGrid.key(Math.floor(x / LEAF_SPACING), Math.floor(y / LEAF_SPACING));
    const cell = this.cells.get(key);
    if (cell) cell.push(x, y);
    else this.cells.set(key, [x, y]);
  }
}

/**
 * Attractors around the crown centre (0, 0) in polar slices: angle 0 is "up", the fan spans
 * [-fan/2, fan/2], inner radius `inner`. Returns them and the outermost radius used.
 */
export function seedAttractors(model: TreeModel, random: Random, fan: number, inner: number) {
  const grid = new SpacingGrid();
  const attractors: Attractor[] = [];
  let outer = inner;
  const polar = (theta: number, rho: number) => ({ x: rho * Math.sin(theta), y: -rho * Math.cos(theta) });
  const place = (id: string, kind: Attractor['kind'], x: number, y: number) => {
    grid.add(x, y);
    attractors.push({ id, kind, x, y });
  };

  const stack: { node: ModelNode; from: number; to: number; rho: number }[] = [
    { node: model.root, from: -fan / 2, to: fan / 2, rho: inner },
  ];
  while (stack.length > 0) {
    const { node, from, to, rho } = stack.pop()!;
    if (node.project) {
      // The bud where the project's branch begins, somewhere in the middle half of its sector
      // (nested projects that inherit a whole sector would otherwise stack in one column);
      // pushed outward until it has room.
      const angle = between(random, from + (to - from) / 4, to - (to - from) / 4);
      let r = rho;
      let p = polar(angle, r);
      while (!grid.free(p.x, p.y)) p = polar(angle, (r += LEAF_SPACING / 4));
      place(node.id, 'project', p.x, p.y);
    }
    // The project's own tasks fill the slice [rho, end] of its sector.
    const span = Math.max(to - from, 1e-6);
    let end = Math.sqrt(rho * rho + (2 * node.tasks.length * AREA_PER_POINT) / span);
    for (const task of node.tasks) {
      for (let tries = 0; ; tries++) {
        // Uniform over the annular slice's area, not its radius, so the cloud has even density.
        const r = Math.sqrt(between(random, rho * rho, end * end));
        const p = polar(between(random, from, to), r);
        if (grid.free(p.x, p.y)) {
          place(task.id, 'task', p.x, p.y);
          break;
        }
        // Crowded: widen the slice a little rather than give up on a task.
        if (tries >= TRIES) end += LEAF_SPACING / 2;
      }
    }
    outer = Math.max(outer, end);
    const total = node.children.reduce((sum, c) => sum + c.weight + 1, 0);
    let at = from;
    for (const child of node.children) {
      const share = ((child.weight + 1) / total) * (to - from);
      stack.push({ node: child, from: at, to: at + share, rho: end + LEAF_SPACING });
      at += share;
    }
  }
  return { attractors, outer };
}
