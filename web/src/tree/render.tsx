/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The drawing as SVG: one <svg role="img"> named for the tree (CONTRACT §15), holding the picture
// and, over it, the projects and leaves as focusable nodes (data-project-id, data-task-id) that
// open with Enter. Inside an image the nodes are graphics, not widgets: they carry a <title> and
// no role, so no interactive control sits inside role="img" (axe: nested-interactive). People on
// assistive technology get the same tree as the accessible list view beside the drawing. No inline
// style: the app runs under a strict CSP, so only presentation attributes and classes.
import type { JSX } from 'preact';
import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { layoutTree } from './layout.js';
import { paintLeaves } from './leafPaint.js';
import { Picture } from './picture.js';
import { buildModel, type ModelNode } from './model.js';
import { buildNodes, leafClass, type LeafNode } from './nodeLayer.js';
import { branchPaths } from './paint.js';
import type { Layout, TreeDrawingProps } from './types.js';
import { roomyLabels, LABEL_PX, viewBoxOf, type Box, type View } from './zoom.js';
import { ZoomView } from './zoomView.js';

const activates = (e: KeyboardEvent) => e.key === 'Enter' || e.key === ' ';

export function TreeDrawing(props: TreeDrawingProps): JSX.Element {
  const { input, style } = props;
  // Laid out once per input and style; highlighting or selecting only repaints the nodes.
  const layout = useMemo(() => layoutTree(input, style), [input, style]);
  const paths = useMemo(() => branchPaths(layout.branches), [layout]);
  const nodes = useMemo(() => buildModel(input).nodes, [input]);
  const leaves = useMemo(() => paintLeaves(layout.leaves, new Map(input.tasks.map((t) => [t.id, t]))), [layout, input]);
  const { width, height } = layout;
  const viewBox = `0 0 ${width} ${height}`;

  // The picture as one vnode per layout: a render of the page for anything else (a selection, a
  // search, a panel) hands Preact the same vnode, which it skips without walking it.
  const picture = useMemo(() => <Picture layout={layout} paths={paths} leaves={leaves} />, [layout, paths, leaves]);

  const drawing = (view: View | null, box: Box | null) => (
    <svg
      class="tree-drawing"
      role="img"
      aria-label={props.labels.drawing}
      viewBox={view !== null && box !== null ? viewBoxOf(view, box) : viewBox}
      width={width}
      height={height}
      data-style={style}
    >
      {picture}
      <OverdueRings layout={layout} overdue={props.overdue} />
      <FreshMarks layout={layout} fresh={props.fresh} scale={view?.k ?? null} />
      <Nodes {...props} layout={layout} nodes={nodes} scale={view?.k ?? null} />
    </svg>
  );
  const zoom = props.labels.zoom;
  if (zoom === undefined) return drawing(null, null);
  return (
    <ZoomView layout={layout} labels={zoom}>
      {drawing}
    </ZoomView>
  );
}

/** A dashed ring round each overdue leaf, all in one path (the words are in the leaf's title). */
function OverdueRings({ layout, overdue }: { layout: Layout; overdue?: ReadonlySet<string> }): JSX.Element | null {
  const d = useMemo(() => {
    if (overdue === undefined || overdue.size === 0) return '';
    return layout.leaves
      .filter((l) => overdue.has(l.id))
      .map((l) => `M${l.x - 7.5} ${l.y}a7.5 7.5 0 1 0 15 0a7.5 7.5 0 1 0 -15 0`)
      .join('');
  }, [layout, overdue]);
  if (d === '') return null;
  return <path class="tree-overdue-ring" d={d} aria-hidden="true" />;
}

/**
 * A ring round each leaf an agent just added or changed, and the agent's name beside it (the page
 * says the same in words outside the picture, which is an image to assistive technology).
 */
function FreshMarks({
  layout,
  fresh,
  scale,
}: {
  layout: Layout;
  fresh?: ReadonlyMap<string, string>;
  scale: number | null;
}): JSX.Element | null {
  if (fresh === undefined || fresh.size === 0) return null;
  const placed = layout.leaves.filter((l) => fresh.has(l.id));
  if (placed.length === 0) return null;
  return (
    <g
      class="tree-fresh"
      aria-hidden="true"
      font-size={scale === null ? LABEL_PX : Math.round((LABEL_PX / scale) * 100) / 100}
    >
      {placed.map((l) => (
        <g key={l.id} transform={`translate(${l.x} ${l.y})`}>
          <circle class="tree-ring--fresh" r="9.5" fill="none" stroke="#15803d" stroke-width="2.5" />
          <text class="tree-fresh-name" x="12" dy="0.35em">
            {fresh.get(l.id)}
          </text>
        </g>
      ))}
    </g>
  );
}

/**
 * One focusable, labelled node per project and task over the picture (nodeLayer.ts: built with
 * DOM calls once per layout and labels, not as 30,000 vnodes). One click and one key handler for
 * all of them (no closure per node); a selection or a search only changes the classes of the few
 * nodes it marks, and draws their rings.
 */
function Nodes(props: TreeDrawingProps & { layout: Layout; nodes: ModelNode[]; scale: number | null }): JSX.Element {
  const { layout, nodes, highlighted, selectedId, labels, onOpenTask, onOpenProject, scale } = props;
  const placed = useMemo(() => new Map(layout.leaves.map((l) => [l.id, l])), [layout]);
  const knots = useMemo(() => new Map(layout.projects.map((p) => [p.id, p])), [layout]);
  const tasks = useMemo(() => nodes.flatMap((node) => node.tasks), [nodes]);
  const group = useRef<SVGGElement>(null);
  const leaves = useRef(new Map<string, LeafNode>());
  const classed = useRef<LeafNode[]>([]);

  // Layout effects: the nodes are in the document before the browser paints the drawing.
  useLayoutEffect(() => {
    leaves.current = buildNodes(group.current!, nodes, placed, knots, labels);
    classed.current = [];
  }, [nodes, placed, knots, labels]);

  // Project names where there is room at this zoom (the rest on hover and focus, by CSS); the
  // zoom is rounded to a step of 10 % so a pinch does not re-measure every frame.
  const step = scale === null ? null : Math.round(Math.log(scale) / Math.log(1.1));
  useLayoutEffect(() => {
    if (step === null) return;
    const k = Math.pow(1.1, step);
    const named = nodes.flatMap((n) => {
      const at = n.project && knots.get(n.id);
      return n.project && at ? [{ id: n.id, name: n.project.name, at }] : [];
    });
    const roomy = roomyLabels(named, k);
    for (const text of group.current!.querySelectorAll('.tree-project-name')) {
      const id = text.parentElement?.getAttribute('data-project-id') ?? '';
      text.setAttribute('class', roomy.has(id) ? 'tree-project-name roomy' : 'tree-project-name');
    }
  }, [step, nodes, knots, labels]);

  const marked = tasks.filter((t) => placed.has(t.id) && (highlighted?.has(t.id) || t.id === selectedId));
  useLayoutEffect(() => {
    for (const leaf of classed.current) leaf.element.setAttribute('class', leafClass(leaf.task, false, false));
    classed.current = [];
    for (const t of marked) {
      const leaf = leaves.current.get(t.id);
      if (!leaf) continue;
      leaf.element.setAttribute('class', leafClass(t, highlighted?.has(t.id) ?? false, t.id === selectedId));
      classed.current.push(leaf);
    }
  });

  const target = (e: Event) => (e.target as Element).closest('[data-task-id], [data-project-id]');
  const open = (e: Event) => {
    const node = target(e);
    const task = node?.getAttribute('data-task-id');
    const project = node?.getAttribute('data-project-id');
    if (task) onOpenTask(task);
    else if (project) onOpenProject?.(project);
    return node !== null;
  };
  return (
    <>
      <g class="tree-marks" aria-hidden="true">
        {marked.map((t) => {
          const at = placed.get(t.id)!;
          return (
            <g key={t.id} transform={`translate(${at.x} ${at.y})`}>
              {highlighted?.has(t.id) && (
                <circle
                  class="tree-ring--highlighted"
                  r="8.5"
                  fill="#fde047"
                  fill-opacity="0.35"
                  stroke="#ca8a04"
                  stroke-width="2"
                />
              )}
              {t.id === selectedId && (
                <circle class="tree-ring--selected" r="8.5" fill="none" stroke="#1d4ed8" stroke-width="2.5" />
              )}
            </g>
          );
        })}
        {selectedId && knots.has(selectedId) && (
          <circle
            class="tree-ring--selected"
            cx={knots.get(selectedId)!.x}
            cy={knots.get(selectedId)!.y}
            r="9"
            fill="none"
            stroke="#1d4ed8"
            stroke-width="2.5"
          />
        )}
      </g>
      {/* fill and pointer-events are inherited: set once here rather than on 10,000 circles. Preact
          owns the group and its handlers, nodeLayer.ts its children. */}
      <g
        ref={group}
        class="tree-nodes"
        font-size={scale === null ? LABEL_PX : Math.round((LABEL_PX / scale) * 100) / 100}
        fill="none"
        pointer-events="all"
        onClick={open}
        onKeyDown={(e) => activates(e) && target(e) !== null && (e.preventDefault(), open(e))}
      />
    </>
  );
}
