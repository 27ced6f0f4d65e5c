// The input records become one sorted project tree that all three layouts share: projects nested
// by parent_id, each holding its visible tasks. Sorting here (position, then id) is what makes
// every layout independent of the order of the input arrays.
import type { LayoutInput, LayoutProject, LayoutTask } from './types.js';

export interface ModelNode {
  /** '' for the root (the trunk), else the project id. */
  id: string;
  project: LayoutProject | null;
  depth: number;
  parent: ModelNode | null;
  /** Visible (not archived) tasks of this node, sorted. */
  tasks: LayoutTask[];
  children: ModelNode[];
  /** Visible tasks in this node and all below it. */
  weight: number;
}

export interface TreeModel {
  root: ModelNode;
  /** Pre-order (a project before its tasks' siblings below it), children in sorted order. */
  nodes: ModelNode[];
  /** Deepest project nesting: 0 without projects, 1 with top-level projects only. */
  depth: number;
  taskCount: number;
}

export function byPosition(a: { position: number; id: string }, b: { position: number; id: string }): number {
  if (a.position !== b.position) return a.position - b.position;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function makeNode(project: LayoutProject | null, parent: ModelNode | null): ModelNode {
  return {
    id: project?.id ?? '',
    project,
    depth: parent ? parent.depth + 1 : 0,
    parent,
    tasks: [],
    children: [],
    weight: 0,
  };
}

export function buildModel(input: LayoutInput): TreeModel {
  const projects = [...input.projects].sort(byPosition);
  const known = new Set(projects.map((p) => p.id));
  const childrenOf = new Map<string, LayoutProject[]>();
  for (const p of projects) {
    // A parent we were not given (or none) puts the project on the trunk.
    const key = p.parent_id !== null && known.has(p.parent_id) ? p.parent_id : '';
    const list = childrenOf.get(key);
    if (list) list.push(p);
    else childrenOf.set(key, [p]);
  }

  const root = makeNode(null, null);
  const byId = new Map<string, ModelNode>([['', root]]);
  const attach = (start: ModelNode) => {
    // Breadth-first and iterative: nesting depth never meets the call-stack limit.
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i]!;
      for (const p of childrenOf.get(node.id) ?? []) {
        if (byId.has(p.id)) continue;
        const child = makeNode(p, node);
        byId.set(p.id, child);
        node.children.push(child);
        queue.push(child);
      }
    }
  };
  attach(root);
  // Projects in a parent cycle are unreachable from the trunk; the API forbids cycles, but a
  // drawing must still show every project, so each cycle hangs from the trunk at its first member.
  for (const p of projects) {
    if (byId.has(p.id)) continue;
    const node = makeNode(p, root);
    byId.set(p.id, node);
    root.children.push(node);
    attach(node);
  }

  let taskCount = 0;
  for (const t of [...input.tasks].sort(byPosition)) {
    if (t.status === 'archived') continue;
    const owner = (t.project_id !== null && byId.get(t.project_id)) || root;
    owner.tasks.push(t);
    taskCount++;
  }

  const nodes = preOrder(root);
  let depth = 0;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    node.weight += node.tasks.length;
    if (node.parent) node.parent.weight += node.weight;
    depth = Math.max(depth, node.depth);
  }
  return { root, nodes, depth, taskCount };
}

/** Depth-first pre-order without recursion, children in their sorted order. */
export function preOrder(root: ModelNode): ModelNode[] {
  const out: ModelNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}
