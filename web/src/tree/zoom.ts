// The drawing's window onto the tree (CONTRACT §18: wheel, pinch, drag, + - 0). Pure math over
// the layout's units: `k` is CSS pixels per unit, (cx, cy) the unit at the window's centre.
import type { Layout, PlacedProject } from './types.js';

export interface View {
  cx: number;
  cy: number;
  k: number;
}

export interface Box {
  w: number;
  h: number;
}

/** A leaf's hit circle is 12 units across: at 2.1 px a unit it is a tap target of 24 px and a little more. */
export const TAP_SCALE = 2.1;
/** Windows narrower than this are phones: they open at TAP_SCALE, the whole tree is a `0` away. */
export const PHONE_WIDTH = 640;
const MAX_SCALE = 8;
export const STEP = 1.4;

/** The whole tree in the window. */
export function fitView(layout: Pick<Layout, 'width' | 'height'>, box: Box): View {
  return { cx: layout.width / 2, cy: layout.height / 2, k: Math.min(box.w / layout.width, box.h / layout.height) };
}

/**
 * The view a page opens with: the whole tree, except on a phone when that would make leaves
 * smaller than tap targets; then tap-sized, on the leaves.
 */
export function openingView(layout: Layout, box: Box): View {
  const fit = fitView(layout, box);
  if (box.w >= PHONE_WIDTH || fit.k >= TAP_SCALE || layout.leaves.length === 0) return fit;
  // Centred on the leaf nearest the leaves' mean, so the window opens on leaves, not on the
  // bare middle of a fan.
  let x = 0;
  let y = 0;
  for (const leaf of layout.leaves) {
    x += leaf.x;
    y += leaf.y;
  }
  x /= layout.leaves.length;
  y /= layout.leaves.length;
  let near = layout.leaves[0]!;
  for (const leaf of layout.leaves)
    if (Math.hypot(leaf.x - x, leaf.y - y) < Math.hypot(near.x - x, near.y - y)) near = leaf;
  return clampView({ cx: near.x, cy: near.y, k: TAP_SCALE }, layout, box);
}

/** Zoom stays between half the fit and MAX_SCALE; the centre stays over the tree. */
export function clampView(view: View, layout: Pick<Layout, 'width' | 'height'>, box: Box): View {
  const least = Math.min(fitView(layout, box).k / 2, TAP_SCALE);
  const k = Math.min(MAX_SCALE, Math.max(least, view.k));
  return {
    k,
    cx: Math.min(layout.width, Math.max(0, view.cx)),
    cy: Math.min(layout.height, Math.max(0, view.cy)),
  };
}

/** Zooms by `factor`, keeping the unit under the window point (px, py) where it is. */
export function zoomAt(view: View, factor: number, px: number, py: number, box: Box, layout: Layout): View {
  const next = clampView({ ...view, k: view.k * factor }, layout, box);
  const ux = view.cx + (px - box.w / 2) / view.k;
  const uy = view.cy + (py - box.h / 2) / view.k;
  return clampView({ k: next.k, cx: ux - (px - box.w / 2) / next.k, cy: uy - (py - box.h / 2) / next.k }, layout, box);
}

/** Moves the view by a drag of (dx, dy) CSS pixels. */
export function panBy(view: View, dx: number, dy: number, box: Box, layout: Layout): View {
  return clampView({ ...view, cx: view.cx - dx / view.k, cy: view.cy - dy / view.k }, layout, box);
}

export function viewBoxOf(view: View, box: Box): string {
  const w = box.w / view.k;
  const h = box.h / view.k;
  const r = (v: number) => Math.round(v * 100) / 100;
  return `${r(view.cx - w / 2)} ${r(view.cy - h / 2)} ${r(w)} ${r(h)}`;
}

/** Whether a point is inside the window (with a margin of `pad` units). */
export function inView(view: View, box: Box, x: number, y: number, pad = 0): boolean {
  return Math.abs(x - view.cx) <= box.w / 2 / view.k - pad && Math.abs(y - view.cy) <= box.h / 2 / view.k - pad;
}

/** Screen size of a label's character and line (CSS px): the names are drawn at 12 px whatever the zoom. */
export const LABEL_PX = 12;
const CHAR_PX = 7;

/**
 * The project names there is room for at this zoom: in the given order (the tree's, trunk side
 * first), each kept when its box overlaps no kept one. The others show on hover and focus.
 */
export function roomyLabels(
  projects: readonly { id: string; name: string; at: PlacedProject }[],
  k: number,
): Set<string> {
  const kept: { x1: number; y1: number; x2: number; y2: number }[] = [];
  const roomy = new Set<string>();
  for (const p of projects) {
    const x1 = (p.at.x + 9) * k;
    const box = { x1, y1: p.at.y * k - LABEL_PX, x2: x1 + p.name.length * CHAR_PX, y2: p.at.y * k + LABEL_PX };
    if (kept.some((o) => box.x1 < o.x2 && o.x1 < box.x2 && box.y1 < o.y2 && o.y1 < box.y2)) continue;
    kept.push(box);
    roomy.add(p.id);
  }
  return roomy;
}
