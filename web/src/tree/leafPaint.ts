// The leaves as paint: a handful of <path> elements (one per colour and status look, one for all
// midribs, one for all check marks) instead of several elements per leaf. At 10,000 tasks the
// browser's cost is the number of elements it creates, styles and lays out, not the length of a
// path's `d`; the focusable, labelled node per task stays, as a light overlay (render.tsx). Pure
// (strings and numbers), so Node tests can check it.
import { leafColor } from './paint.js';
import type { LayoutTask, PlacedLeaf } from './types.js';

export interface LeafGroup {
  color: string;
  look: 'plain' | 'deferred' | 'done';
  d: string;
}

export interface LeafPaint {
  groups: LeafGroup[];
  /** Every midrib of a leaf that is not done, as one path. */
  midribs: string;
  /** Every check mark over a done leaf, as one path. */
  checks: string;
}

/** The shape of paint.ts's LEAF_PATH as points: a move, then two cubic curves back to the start. */
const LEAF: readonly (readonly [number, number])[] = [
  [-5, 0],
  [-3, -3.6],
  [2, -3.8],
  [5, 0],
  [2, 3.8],
  [-3, 3.6],
  [-5, 0],
];
const MIDRIB: readonly (readonly [number, number])[] = [
  [-4.5, 0],
  [3.6, 0],
];

const n = (v: number) => String(Math.round(v * 10) / 10);

function lookOf(status: LayoutTask['status']): LeafGroup['look'] {
  return status === 'done' ? 'done' : status === 'deferred' ? 'deferred' : 'plain';
}

export function paintLeaves(leaves: PlacedLeaf[], tasks: ReadonlyMap<string, LayoutTask>): LeafPaint {
  const groups = new Map<string, LeafGroup & { parts: string[] }>();
  const midribs: string[] = [];
  const checks: string[] = [];
  for (const leaf of leaves) {
    const task = tasks.get(leaf.id);
    if (!task) continue;
    const color = leafColor(task.color);
    const look = lookOf(task.status);
    const key = `${color} ${look}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { color, look, d: '', parts: [] }));
    // Rotated by the leaf's angle, then moved to its point: what transform="translate rotate" did.
    const a = (leaf.angle * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    const p = ([x, y]: readonly [number, number]) =>
      `${n(leaf.x + x * cos - y * sin)} ${n(leaf.y + x * sin + y * cos)}`;
    group.parts.push(
      `M${p(LEAF[0]!)}C${p(LEAF[1]!)} ${p(LEAF[2]!)} ${p(LEAF[3]!)}C${p(LEAF[4]!)} ${p(LEAF[5]!)} ${p(LEAF[6]!)}Z`,
    );
    if (look === 'done') checks.push(`M${n(leaf.x - 2.6)} ${n(leaf.y + 0.1)}l1.8 1.8l3.5 -3.8`);
    else midribs.push(`M${p(MIDRIB[0]!)}L${p(MIDRIB[1]!)}`);
  }
  return {
    groups: [...groups.values()].map(({ color, look, parts }) => ({ color, look, d: parts.join('') })),
    midribs: midribs.join(''),
    checks: checks.join(''),
  };
}
