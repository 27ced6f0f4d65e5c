// The focusable node over each project and leaf, built with DOM calls rather than as Preact
// elements. At 10,000 tasks the nodes are 30,000 virtual nodes (circle, title, text) that Preact
// creates, diffs and keys once per drawing and walks again on every render of the page: more
// than half of the drawing's time in Chromium went there, not into the DOM. Here each node is a
// clone of one prototype (its constant attributes copied natively) and only what differs is set.
// User text goes in as textContent, never as markup.
import { leafColor } from './paint.js';
import type { ModelNode } from './model.js';
import type { LayoutTask, PlacedLeaf, PlacedProject, TreeDrawingProps } from './types.js';

const SVG = 'http://www.w3.org/2000/svg';
/**
 * The focusable circle over a leaf: inside LEAF_SPACING / 2, so neighbours never cover each other.
 * Unpainted (fill none) but hit by the pointer (pointer-events all), both inherited from the nodes'
 * group: 10,000 transparent fills are 10,000 paint operations for nothing.
 */
const HIT_RADIUS = '6';

export interface LeafNode {
  element: Element;
  task: LayoutTask;
}

export function leafClass(task: LayoutTask, highlighted: boolean, selected: boolean): string {
  return `tree-leaf tree-leaf--${task.status}${highlighted ? ' tree-leaf--highlighted' : ''}${selected ? ' tree-leaf--selected' : ''}`;
}

/**
 * Replaces the group's children with one node per project and drawn task. Document order is tab
 * order: each project, then its tasks, then its sub-projects. Returns the leaf nodes by task id.
 */
export function buildNodes(
  group: Element,
  nodes: readonly ModelNode[],
  placed: ReadonlyMap<string, PlacedLeaf>,
  knots: ReadonlyMap<string, PlacedProject>,
  labels: TreeDrawingProps['labels'],
): Map<string, LeafNode> {
  const doc = group.ownerDocument;
  const leafProto = doc.createElementNS(SVG, 'circle');
  leafProto.setAttribute('tabindex', '0');
  leafProto.setAttribute('r', HIT_RADIUS);
  leafProto.appendChild(doc.createElementNS(SVG, 'title'));
  const knotProto = doc.createElementNS(SVG, 'g');
  knotProto.setAttribute('class', 'tree-project');
  knotProto.setAttribute('tabindex', '0');
  knotProto.appendChild(doc.createElementNS(SVG, 'title'));
  // The project's name beside its knot: shown where there is room, and on hover and focus (CSS).
  const name = knotProto.appendChild(doc.createElementNS(SVG, 'text'));
  name.setAttribute('class', 'tree-project-name');
  name.setAttribute('x', '9'); // units: clear of the knot (r 5, stroke 2) at any zoom
  name.setAttribute('dy', '0.35em');
  name.setAttribute('aria-hidden', 'true');
  const knotCircle = knotProto.appendChild(doc.createElementNS(SVG, 'circle'));
  knotCircle.setAttribute('r', '5');
  knotCircle.setAttribute('stroke', '#4e3423');
  knotCircle.setAttribute('stroke-width', '2');

  const leaves = new Map<string, LeafNode>();
  const out = doc.createDocumentFragment();
  for (const node of nodes) {
    const knot = node.project && knots.get(node.id);
    if (node.project && knot) {
      const g = knotProto.cloneNode(true) as Element;
      g.setAttribute('data-project-id', node.id);
      g.setAttribute('transform', `translate(${knot.x} ${knot.y})`);
      g.firstChild!.textContent = labels.project(node.project);
      g.childNodes[1]!.textContent = node.project.name;
      (g.lastChild as Element).setAttribute('fill', leafColor(node.project.color));
      out.appendChild(g);
    }
    for (const task of node.tasks) {
      const at = placed.get(task.id);
      if (!at) continue;
      const circle = leafProto.cloneNode(true) as Element;
      circle.setAttribute('class', leafClass(task, false, false));
      circle.setAttribute('data-task-id', task.id);
      circle.setAttribute('cx', String(at.x));
      circle.setAttribute('cy', String(at.y));
      circle.firstChild!.textContent = labels.task(task);
      out.appendChild(circle);
      leaves.set(task.id, { element: circle, task });
    }
  }
  group.replaceChildren(out);
  return leaves;
}
