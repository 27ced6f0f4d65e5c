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
import { buildModel, type ModelNode } from './model.js';
import { branchPaths, CHECK_PATH, LEAF_PATH, leafColor, MIDRIB_PATH } from './paint.js';
import type { Layout, LayoutTask, TreeDrawingProps } from './types.js';

const activates = (e: KeyboardEvent) => e.key === 'Enter' || e.key === ' ';

export function TreeDrawing(props: TreeDrawingProps): JSX.Element {
  const { input, style } = props;
  // Laid out once per input and style; highlighting or selecting only repaints the nodes.
  const layout = useMemo(() => layoutTree(input, style), [input, style]);
  const paths = useMemo(() => branchPaths(layout.branches), [layout]);
  const nodes = useMemo(() => buildModel(input).nodes, [input]);
  const { width, height } = layout;
  const viewBox = `0 0 ${width} ${height}`;
  const ground = layout.branches[0]?.y1 ?? height;

  return (
    <svg class="tree-drawing" role="img" aria-label={props.labels.drawing} viewBox={viewBox} width={width} height={height} data-style={style}>
      <svg viewBox={viewBox} width={width} height={height}>
        <ellipse cx={width / 2} cy={ground} rx={width * 0.42} ry={Math.max(6, width * 0.025)} fill="#7c9a4e" fill-opacity="0.18" />
        <path d={`M${width * 0.06} ${ground}H${width * 0.94}`} stroke="#7c9a4e" stroke-opacity="0.55" stroke-width="2" stroke-linecap="round" />
        <g fill="none" stroke-linecap="round" stroke-linejoin="round">
          {paths.map((p) => (
            <path key={p.width} d={p.d} stroke={p.color} stroke-width={p.width} />
          ))}
        </g>
      </svg>
      <Nodes {...props} layout={layout} nodes={nodes} />
    </svg>
  );
}

function Nodes(props: TreeDrawingProps & { layout: Layout; nodes: ModelNode[] }): JSX.Element {
  const { layout, nodes, highlighted, selectedId, labels } = props;
  const leaves = useMemo(() => new Map(layout.leaves.map((l) => [l.id, l])), [layout]);
  const knots = useMemo(() => new Map(layout.projects.map((p) => [p.id, p])), [layout]);
  const out: JSX.Element[] = [];
  // Document order is tab order: each project, then its tasks, then its sub-projects. (On SVG,
  // Preact sets attributes by the name given, and only the lowercase `tabindex` is one.)
  for (const node of nodes) {
    const knot = node.project && knots.get(node.id);
    if (node.project && knot) {
      const project = node.project;
      const open = () => props.onOpenProject?.(project.id);
      out.push(
        <g
          key={`p:${project.id}`}
          class="tree-project"
          data-project-id={project.id}
          tabindex={0}
          transform={`translate(${knot.x} ${knot.y})`}
          onClick={open}
          onKeyDown={(e) => activates(e) && (e.preventDefault(), open())}
        >
          <title>{labels.project(project)}</title>
          {selectedId === project.id && <circle r="9" fill="none" stroke="#1d4ed8" stroke-width="2.5" />}
          <circle r="5" fill={leafColor(project.color)} stroke="#4e3423" stroke-width="2" />
        </g>,
      );
    }
    for (const task of node.tasks) {
      const leaf = leaves.get(task.id);
      if (!leaf) continue;
      out.push(
        <Leaf
          key={`t:${task.id}`}
          task={task}
          x={leaf.x}
          y={leaf.y}
          angle={leaf.angle}
          label={labels.task(task)}
          highlighted={highlighted?.has(task.id) ?? false}
          selected={selectedId === task.id}
          onOpen={props.onOpenTask}
        />,
      );
    }
  }
  return <g class="tree-nodes">{out}</g>;
}

interface LeafProps {
  task: LayoutTask;
  x: number;
  y: number;
  angle: number;
  label: string;
  highlighted: boolean;
  selected: boolean;
  onOpen(id: string): void;
}

function Leaf({ task, x, y, angle, label, highlighted, selected, onOpen }: LeafProps): JSX.Element {
  const color = leafColor(task.color);
  const done = task.status === 'done';
  const open = () => onOpen(task.id);
  const classes = ['tree-leaf', `tree-leaf--${task.status}`, highlighted && 'tree-leaf--highlighted', selected && 'tree-leaf--selected'];
  return (
    <g
      class={classes.filter(Boolean).join(' ')}
      data-task-id={task.id}
      tabindex={0}
      transform={`translate(${x} ${y})`}
      onClick={open}
      onKeyDown={(e) => activates(e) && (e.preventDefault(), open())}
    >
      <title>{label}</title>
      {highlighted && <circle r="8.5" fill="#fde047" fill-opacity="0.35" stroke="#ca8a04" stroke-width="2" />}
      {selected && <circle r="8.5" fill="none" stroke="#1d4ed8" stroke-width="2.5" />}
      <g transform={`rotate(${angle})`}>
        <path
          d={LEAF_PATH}
          fill={color}
          fill-opacity={done ? 0.3 : task.status === 'deferred' ? 0.6 : 1}
          stroke={color}
          stroke-width="1"
          stroke-dasharray={task.status === 'deferred' ? '2 1.5' : undefined}
        />
        {!done && <path d={MIDRIB_PATH} stroke="#ffffff" stroke-opacity="0.45" stroke-width="0.7" fill="none" />}
      </g>
      {done && <path d={CHECK_PATH} stroke="#1f5130" stroke-width="1.6" fill="none" stroke-linecap="round" stroke-linejoin="round" />}
    </g>
  );
}
