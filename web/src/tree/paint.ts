// How the picture is painted, apart from the component: branch paths grouped by width, bark
// colours, leaf shapes. Pure (strings and numbers), so Node tests can check it.
import type { Branch } from './types.js';

export interface BranchPath {
  width: number;
  color: string;
  d: string;
}

/** Widths are grouped on a ratio scale: a few paths, each within about 12% of its true width. */
const RATIO = Math.log(1.25);

const n = (v: number) => String(Math.round(v * 10) / 10);

/** A few <path> elements: branches grouped by width, thickest first so thin twigs lie on top. */
export function branchPaths(branches: Branch[]): BranchPath[] {
  const groups = new Map<number, Branch[]>();
  for (const b of branches) {
    const step = Math.round(Math.log(Math.max(b.width, 0.5)) / RATIO);
    const group = groups.get(step);
    if (group) group.push(b);
    else groups.set(step, [b]);
  }
  const steps = [...groups.keys()].sort((a, b) => b - a);
  const thickest = Math.exp((steps[0] ?? 0) * RATIO);
  return steps.map((step) => {
    const width = Math.exp(step * RATIO);
    let d = '';
    let endX = NaN;
    let endY = NaN;
    for (const b of groups.get(step)!) {
      // A segment that starts where the last one ended continues the same subpath.
      if (b.x1 !== endX || b.y1 !== endY) d += `M${n(b.x1)} ${n(b.y1)}`;
      d += `L${n(b.x2)} ${n(b.y2)}`;
      endX = b.x2;
      endY = b.y2;
    }
    return { width: Math.round(width * 100) / 100, color: barkColor(width, thickest), d };
  });
}

/** Dark brown bark on the trunk, turning olive toward the twigs. */
export function barkColor(width: number, thickest: number): string {
  const t = thickest > 1 ? Math.min(1, Math.max(0, Math.log(Math.max(width, 1)) / Math.log(thickest))) : 1;
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  // olive #6f7d3c → bark #4e3423
  const [r, g, b] = [mix(0x6f, 0x4e), mix(0x7d, 0x34), mix(0x3c, 0x23)];
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** A task colour as given, if it is a hex colour; otherwise the API's default task colour. */
export function leafColor(color: string): string {
  return /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : '#6b8e23';
}

/** A rounded leaf about 10 long pointing along +x, centred on the origin, and its midrib. */
export const LEAF_PATH = 'M-5 0C-3 -3.6 2 -3.8 5 0C2 3.8 -3 3.6 -5 0Z';
export const MIDRIB_PATH = 'M-4.5 0L3.6 0';
/** Drawn upright over a done leaf. */
export const CHECK_PATH = 'M-2.6 0.1L-0.8 1.9L2.7 -1.9';
