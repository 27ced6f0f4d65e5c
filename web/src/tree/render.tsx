/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The drawing as SVG: one <svg role="img"> named for the tree (CONTRACT §15), holding the picture
// and, over it, the projects and leaves as focusable nodes (data-project-id, data-task-id) that
// open with Enter. Inside an image the nodes are graphics, not widgets: they carry a <title> and
// no role, so no interactive control sits inside role="img" (axe: nested-interactive). People on
// assistive technology get the same tree as the accessible list view beside the drawing. No inline
// style: the app runs under a strict CSP, so only presentation attributes and classes.
import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { layoutTree } from './layout.js';
import { paintLeaves } from './leafPaint.js';
import { buildModel, type ModelNode } from './model.js';
import { branchPaths, leafColor } from './paint.js';
import type { Layout, LayoutTask, TreeDrawingProps } from './types.js';

const activates = (e: KeyboardEvent) => e.key === 'Enter' || e.key === ' ';
/**
 * The focusable circle over a leaf: inside LEAF_SPACING / 2, so neighbours never cover each other.
 * Unpainted (fill none) but hit by the pointer (pointer-events all): 10,000 transparent fills are
 * 10,000 paint operations for nothing.
 */
const HIT_RADIUS = 6;

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

  return (
    <svg class="tree-drawing" role="img" aria-label={props.labels.drawing} viewBox={viewBox} width={width} height={height} data-style={style}>
      <svg viewBox={viewBox} width={width} height={height}>
        <ellipse cx={width / 2} cy={ground} rx={width * 0.42} ry={Math.max(6, width * 0.025)} fill="#7c9a4e" fill-opacity="0.18" />
        <path d={`M${width * 0.06} ${ground}H${width * 0.94}`} stroke="#7c9a4e" stroke-opacity="0.55" stroke-width="2" stroke-linecap="round" />
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
          <path class="tree-checks" d={leaves.checks} stroke="#1f5130" stroke-width="1.6" fill="none" stroke-linecap="round" stroke-linejoin="round" />
        </g>
      </svg>
      <Nodes {...props} layout={layout} nodes={nodes} />
    </svg>
  );
}

/**
 * One focusable, labelled node per project and task over the picture. One click and one key
 * handler for all of them (no closure per node), and the nodes are built once per layout and
 * labels: a selection or a search only swaps the few nodes it marks, so Preact skips the rest.
 */
function Nodes(props: TreeDrawingProps & { layout: Layout; nodes: ModelNode[] }): JSX.Element {
  const { layout, nodes, highlighted, selectedId, labels, onOpenTask, onOpenProject } = props;
  const placed = useMemo(() => new Map(layout.leaves.map((l) => [l.id, l])), [layout]);
  const knots = useMemo(() => new Map(layout.projects.map((p) => [p.id, p])), [layout]);
  const tasks = useMemo(() => nodes.flatMap((node) => node.tasks), [nodes]);

  const leaf = (task: LayoutTask, marked: boolean, selected: boolean) => {
    const at = placed.get(task.id)!;
    const label = labels.task(task);
    const classes = `tree-leaf tree-leaf--${task.status}${marked ? ' tree-leaf--highlighted' : ''}${selected ? ' tree-leaf--selected' : ''}`;
    return (
      <circle key={`t:${task.id}`} class={classes} data-task-id={task.id} tabindex={0} cx={at.x} cy={at.y} r={HIT_RADIUS} fill="none" pointer-events="all">
        <title>{label}</title>
      </circle>
    );
  };

  // Document order is tab order: each project, then its tasks, then its sub-projects. (On SVG,
  // Preact sets attributes by the name given, and only the lowercase `tabindex` is one.)
  const plain = useMemo(() => {
    const out: JSX.Element[] = [];
    for (const node of nodes) {
      const knot = node.project && knots.get(node.id);
      if (node.project && knot) {
        const label = labels.project(node.project);
        out.push(
          <g key={`p:${node.id}`} class="tree-project" data-project-id={node.id} tabindex={0} transform={`translate(${knot.x} ${knot.y})`}>
            <title>{label}</title>
            <circle r="5" fill={leafColor(node.project.color)} stroke="#4e3423" stroke-width="2" />
          </g>,
        );
      }
      for (const task of node.tasks) if (placed.has(task.id)) out.push(leaf(task, false, false));
    }
    return out;
    // `leaf` reads only placed and labels.
  }, [nodes, knots, placed, labels]);

  const marked = tasks.filter((t) => placed.has(t.id) && (highlighted?.has(t.id) || t.id === selectedId));
  const swaps = new Map(marked.map((t) => [`t:${t.id}`, leaf(t, highlighted?.has(t.id) ?? false, t.id === selectedId)]));
  const out = swaps.size === 0 ? plain : plain.map((v) => swaps.get(String(v.key)) ?? v);

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
              {highlighted?.has(t.id) && <circle class="tree-ring--highlighted" r="8.5" fill="#fde047" fill-opacity="0.35" stroke="#ca8a04" stroke-width="2" />}
              {t.id === selectedId && <circle class="tree-ring--selected" r="8.5" fill="none" stroke="#1d4ed8" stroke-width="2.5" />}
            </g>
          );
        })}
        {selectedId && knots.has(selectedId) && <circle class="tree-ring--selected" cx={knots.get(selectedId)!.x} cy={knots.get(selectedId)!.y} r="9" fill="none" stroke="#1d4ed8" stroke-width="2.5" />}
      </g>
      <g class="tree-nodes" onClick={open} onKeyDown={(e) => activates(e) && target(e) !== null && (e.preventDefault(), open(e))}>
        {out}
      </g>
    </>
  );
}
