import type { Project, Task } from '../../api/types';

export interface OutlineNode {
  project: Project;
  children: OutlineNode[];
  tasks: Task[];
}

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || (a.id < b.id ? -1 : 1);

/** The tree's projects nested under their parents, each with its tasks; tasks outside projects apart. */
export function buildOutline(projects: Project[], tasks: Task[]): { roots: OutlineNode[]; loose: Task[] } {
  const nodes = new Map(projects.map((p) => [p.id, { project: p, children: [], tasks: [] } as OutlineNode]));
  const roots: OutlineNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.project.parent_id !== null ? nodes.get(node.project.parent_id) : undefined;
    (parent?.children ?? roots).push(node);
  }
  const loose: Task[] = [];
  for (const task of tasks) {
    const node = task.project_id !== null ? nodes.get(task.project_id) : undefined;
    (node?.tasks ?? loose).push(task);
  }
  for (const node of nodes.values()) {
    node.children.sort((a, b) => byPosition(a.project, b.project));
    node.tasks.sort(byPosition);
  }
  roots.sort((a, b) => byPosition(a.project, b.project));
  loose.sort(byPosition);
  return { roots, loose };
}

/** A project's tasks with those of every project inside it, at any depth. */
export function taskCount(node: OutlineNode): number {
  return node.children.reduce((sum, child) => sum + taskCount(child), node.tasks.length);
}

/** [id, "Parent / Child"] in outline order, for pickers. */
export function projectPaths(projects: Project[]): [string, string][] {
  const { roots } = buildOutline(projects, []);
  const out: [string, string][] = [];
  const walk = (node: OutlineNode, prefix: string) => {
    const path = prefix === '' ? node.project.name : `${prefix} / ${node.project.name}`;
    out.push([node.project.id, path]);
    for (const child of node.children) walk(child, path);
  };
  for (const root of roots) walk(root, '');
  return out;
}
