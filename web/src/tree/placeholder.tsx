/**
 * Stand-in for web/src/tree/index.ts until the layout branch is merged: the same exports, a plain
 * row of leaves instead of a grown tree. The app imports the drawing only through this name, so
 * the merge changes one import line in components/drawing.ts.
 */
import type { JSX } from 'preact';

export type TreeStyle = 'tidy-fan' | 'space-colonization' | 'lsystem';
export interface LayoutProject { id: string; parent_id: string | null; name: string; color: string; position: number }
export interface LayoutTask { id: string; project_id: string | null; title: string; color: string; status: 'todo' | 'open' | 'done' | 'deferred' | 'archived'; position: number }
export interface LayoutInput { treeId: string; name: string; projects: LayoutProject[]; tasks: LayoutTask[] }
export interface Branch { x1: number; y1: number; x2: number; y2: number; width: number }
export interface PlacedProject { id: string; x: number; y: number }
export interface PlacedLeaf { id: string; x: number; y: number; angle: number }
export interface Layout { branches: Branch[]; projects: PlacedProject[]; leaves: PlacedLeaf[]; width: number; height: number }

const GAP = 40;

export function layoutTree(input: LayoutInput, _style: TreeStyle): Layout {
  const tasks = input.tasks.filter((task) => task.status !== 'archived');
  const width = Math.max(200, (Math.max(tasks.length, input.projects.length) + 1) * GAP);
  const height = 240;
  const projects = input.projects.map((p, i) => ({ id: p.id, x: (i + 1) * GAP, y: 140 }));
  const leaves = tasks.map((task, i) => ({ id: task.id, x: (i + 1) * GAP, y: 60, angle: 0 }));
  const branches = [{ x1: width / 2, y1: height, x2: width / 2, y2: 160, width: 8 }];
  return { branches, projects, leaves, width, height };
}

export interface TreeDrawingProps {
  input: LayoutInput;
  style: TreeStyle;
  highlighted?: ReadonlySet<string>;
  selectedId?: string | null;
  onOpenTask(id: string): void;
  onOpenProject?(id: string): void;
  labels: { drawing: string; task(t: LayoutTask): string; project(p: LayoutProject): string };
}

function onKey(event: KeyboardEvent, open: () => void): void {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    open();
  }
}

export function TreeDrawing(props: TreeDrawingProps): JSX.Element {
  const layout = layoutTree(props.input, props.style);
  const tasks = new Map(props.input.tasks.map((task) => [task.id, task]));
  const projects = new Map(props.input.projects.map((p) => [p.id, p]));
  return (
    <svg role="img" aria-label={props.labels.drawing} viewBox={`0 0 ${layout.width} ${layout.height}`} class="drawing">
      <path d={layout.branches.map((b) => `M${b.x1} ${b.y1}L${b.x2} ${b.y2}`).join('')} class="branch" stroke-width="8" />
      {layout.projects.map((placed) => {
        const project = projects.get(placed.id)!;
        return (
          <circle key={placed.id} data-project-id={placed.id} cx={placed.x} cy={placed.y} r="8" fill={project.color} tabIndex={0} role="button"
            aria-label={props.labels.project(project)} onKeyDown={(e) => onKey(e, () => props.onOpenProject?.(placed.id))} onClick={() => props.onOpenProject?.(placed.id)} />
        );
      })}
      {layout.leaves.map((placed) => {
        const task = tasks.get(placed.id)!;
        const ring = props.highlighted?.has(task.id) === true || props.selectedId === task.id;
        return (
          <circle key={placed.id} data-task-id={placed.id} cx={placed.x} cy={placed.y} r="12" fill={task.status === 'done' ? 'none' : task.color}
            stroke={ring ? '#e0a100' : task.color} stroke-width={ring ? 4 : 2} tabIndex={0} role="button"
            aria-label={props.labels.task(task)} onKeyDown={(e) => onKey(e, () => props.onOpenTask(placed.id))} onClick={() => props.onOpenTask(placed.id)} />
        );
      })}
    </svg>
  );
}
