/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The window the drawing is seen through: wheel and pinch zoom, a drag pans, and with focus in it
// the keys + and - zoom, 0 fits the whole tree and the arrows pan. A node reached with Tab is
// brought into view. Buttons do the same for a mouse alone. The picture itself is untouched: only
// the outer svg's viewBox moves, so a zoom repaints nothing the layout made.
import type { ComponentChildren, JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { clampView, fitView, inView, openingView, panBy, STEP, zoomAt, type Box, type View } from './zoom.js';
import type { Layout, TreeDrawingProps } from './types.js';

const DRAG_PX = 4;
const ARROW_PX = 60;

interface Props {
  layout: Layout;
  labels: NonNullable<TreeDrawingProps['labels']['zoom']>;
  children(view: View | null, box: Box | null): ComponentChildren;
}

export function ZoomView({ layout, labels, children }: Props): JSX.Element {
  const frame = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<Box | null>(null);
  const [view, setView] = useState<View | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const dragged = useRef(false);
  const moved = useRef(0);

  useLayoutEffect(() => {
    const element = frame.current!;
    const measure = () => setBox({ w: element.clientWidth, h: element.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // The opening view once per tree; a new layout of the same tree (a task added) keeps the zoom.
  useLayoutEffect(() => {
    if (box === null || box.w === 0) return;
    setView((v) => (v === null ? openingView(layout, box) : clampView(v, layout, box)));
  }, [layout, box]);

  const change = (next: (v: View, b: Box) => View) => setView((v) => (v === null || box === null ? v : next(v, box)));
  const local = (e: { clientX: number; clientY: number }) => {
    const r = frame.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const at = local(e);
    change((v, b) => zoomAt(v, Math.exp(-e.deltaY * 0.002), at.x, at.y, b, layout));
  };
  const onPointerDown = (e: PointerEvent) => {
    pointers.current.set(e.pointerId, local(e));
    if (pointers.current.size === 1) {
      moved.current = 0;
      dragged.current = false;
    }
  };
  const onPointerMove = (e: PointerEvent) => {
    const before = pointers.current.get(e.pointerId);
    if (before === undefined) return;
    const now = local(e);
    if (pointers.current.size >= 2) {
      // Pinch: the change in the two fingers' distance zooms about their midpoint, which also pans.
      const [a, b] = [...pointers.current.entries()];
      const other = a![0] === e.pointerId ? b![1] : a![1];
      const distance = (p: { x: number; y: number }) => Math.hypot(p.x - other.x, p.y - other.y);
      const factor = distance(before) > 0 ? distance(now) / distance(before) : 1;
      const mid = { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 };
      change((v, bx) =>
        panBy(zoomAt(v, factor, mid.x, mid.y, bx, layout), (now.x - before.x) / 2, (now.y - before.y) / 2, bx, layout),
      );
      dragged.current = true;
    } else {
      moved.current += Math.hypot(now.x - before.x, now.y - before.y);
      if (moved.current > DRAG_PX) {
        // Captured only once it is a drag: a capture at once would take the click from the leaf.
        if (!dragged.current) frame.current!.setPointerCapture?.(e.pointerId);
        dragged.current = true;
        change((v, bx) => panBy(v, now.x - before.x, now.y - before.y, bx, layout));
      }
    }
    pointers.current.set(e.pointerId, now);
  };
  const onPointerEnd = (e: PointerEvent) => {
    pointers.current.delete(e.pointerId);
  };
  // A drag that ends over a leaf is no click on it.
  const onClickCapture = (e: MouseEvent) => {
    if (!dragged.current) return;
    dragged.current = false;
    e.stopPropagation();
    e.preventDefault();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || box === null) return;
    const mid = { x: box.w / 2, y: box.h / 2 };
    const self = e.target === frame.current;
    const pans: Record<string, [number, number]> = {
      ArrowLeft: [ARROW_PX, 0],
      ArrowRight: [-ARROW_PX, 0],
      ArrowUp: [0, ARROW_PX],
      ArrowDown: [0, -ARROW_PX],
    };
    if (e.key === '+' || e.key === '=') change((v, b) => zoomAt(v, STEP, mid.x, mid.y, b, layout));
    else if (e.key === '-' || e.key === '_') change((v, b) => zoomAt(v, 1 / STEP, mid.x, mid.y, b, layout));
    else if (e.key === '0') change((_, b) => fitView(layout, b));
    else if (self && pans[e.key] !== undefined) change((v, b) => panBy(v, pans[e.key]![0], pans[e.key]![1], b, layout));
    else return;
    e.preventDefault();
  };
  // Tab onto a node outside the window: the window goes to it.
  const onFocusIn = (e: FocusEvent) => {
    const node = e.target as Element;
    const x = Number(node.getAttribute('cx') ?? /translate\(([-\d.]+)/.exec(node.getAttribute('transform') ?? '')?.[1]);
    const y = Number(
      node.getAttribute('cy') ?? /translate\([-\d.]+ ([-\d.]+)/.exec(node.getAttribute('transform') ?? '')?.[1],
    );
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    change((v, b) => (inView(v, b, x, y, 12 / v.k) ? v : clampView({ ...v, cx: x, cy: y }, layout, b)));
  };
  const zoomButton = (label: string, run: (v: View, b: Box) => View, text: string) => (
    <button type="button" class="btn small" aria-label={label} title={label} onClick={() => change(run)}>
      {text}
    </button>
  );
  const centre = (b: Box) => ({ x: b.w / 2, y: b.h / 2 });
  return (
    <>
      <div class="zoom-controls">
        {zoomButton(labels.zoomIn, (v, b) => zoomAt(v, STEP, centre(b).x, centre(b).y, b, layout), '+')}
        {zoomButton(labels.zoomOut, (v, b) => zoomAt(v, 1 / STEP, centre(b).x, centre(b).y, b, layout), '−')}
        <button type="button" class="btn small" onClick={() => change((_, b) => fitView(layout, b))}>
          {labels.fit}
        </button>
      </div>
      <div
        ref={frame}
        class="zoom-view"
        tabIndex={0}
        role="group"
        aria-label={labels.label}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onClickCapture={onClickCapture}
        onKeyDown={onKeyDown}
        onFocusCapture={onFocusIn}
      >
        {children(view, box)}
      </div>
    </>
  );
}
