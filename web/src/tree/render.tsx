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
import { buildModel, type ModelNode } from './model.js';
import { buildNodes, leafClass, type LeafNode } from './nodeLayer.js';
import { branchPaths } from './paint.js';
import type { Layout, TreeDrawingProps } from './types.js';

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
  const ground = layout.branches[0]?.y1 ?? height;

  // The picture as one vnode per layout: a render of the page for anything else (a selection, a
  // search, a panel) hands Preact the same vnode, which it skips without walking it.
  const picture = useMemo(
    () => (
      /* The picture takes no pointer events: under the mouse, Chromium would hit-test the stroke of
         a path of 25,000 segments (a third of a second at 10,000 tasks); the nodes take them. */
      <svg viewBox={viewBox} width={width} height={height} pointer-events="none">
        <ellipse
          cx={width / 2}
          cy={ground}
          rx={width * 0.42}
          ry={Math.max(6, width * 0.025)}
          fill="#7c9a4e"
          fill-opacity="0.18"
        />
        <path
          d={`M${width * 0.06} ${ground}H${width * 0.94}`}
          stroke="#7c9a4e"
          stroke-opacity="0.55"
          stroke-width="2"
          stroke-linecap="round"
        />
        <g class="tree-branches" fill="none" stroke-linecap="round" stroke-linejoin="round">
          {paths.map((p) => (
            <path key={p.width} d={p.d} stroke={p.color} stroke-width={p.width} />
          ))}
        </g>
        <g class="tree-leaves" stroke-width="1">
          {leaves.groups.map((g) => (
            <path
              key={`${g.color} ${g.look}`}
              d={g.d}
              fill={g.color}
              fill-opacity={g.look === 'done' ? 0.3 : g.look === 'deferred' ? 0.6 : 1}
              stroke={g.color}
              stroke-dasharray={g.look === 'deferred' ? '2 1.5' : undefined}
            />
          ))}
          <path d={leaves.midribs} stroke="#ffffff" stroke-opacity="0.45" stroke-width="0.7" fill="none" />
          <path
            class="tree-checks"
            d={leaves.checks}
            stroke="#1f5130"
            stroke-width="1.6"
            fill="none"
            stroke-linecap="round"
            stroke-linejoin="round"
          />
        </g>
      </svg>
    ),
    [viewBox, width, height, ground, paths, leaves],
  );

  return (
    <svg
      class="tree-drawing"
      role="img"
      aria-label={props.labels.drawing}
      viewBox={viewBox}
      width={width}
      height={height}
      data-style={style}
    >
      {picture}
      <Nodes {...props} layout={layout} nodes={nodes} />
    </svg>
  );
}

/**
 * One focusable, labelled node per project and task over the picture (nodeLayer.ts: built with
 * DOM calls once per layout and labels, not as 30,000 vnodes). One click and one key handler for
 * all of them (no closure per node); a selection or a search only changes the classes of the few
 * nodes it marks, and draws their rings.
 */
function Nodes(props: TreeDrawingProps & { layout: Layout; nodes: ModelNode[] }): JSX.Element {
  const { layout, nodes, highlighted, selectedId, labels, onOpenTask, onOpenProject } = props;
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
        fill="none"
        pointer-events="all"
        onClick={open}
        onKeyDown={(e) => activates(e) && target(e) !== null && (e.preventDefault(), open(e))}
      />
    </>
  );
}
