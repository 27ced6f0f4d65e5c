// @vitest-environment happy-dom
// The drawing as the app shows it: names tests outside rely on (CONTRACT §15), one focusable,
// labelled node per task and project in a sensible tab order, Enter and Space open, no inline
// style (strict CSP), user text rendered as text, and one layout per input and style.
import { describe, expect, it } from 'vitest';
import { layoutTree } from '../../web/src/tree/layout.js';
import type { LayoutInput, TreeDrawingProps } from '../../web/src/tree/types.js';
import { sampleTree } from './sample-tree.js';

// Preact and the component are loaded untyped: the root tsconfig that checks this file is for
// Node (no DOM, no JSX); web/tsconfig.json checks the component itself.
const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { h, render } = await load('preact');
const { renderToString } = await load('preact-render-to-string');
const { TreeDrawing } = await load('../../web/src/tree/render.tsx');
const doc = (globalThis as any).document;

const labels: TreeDrawingProps['labels'] = {
  drawing: 'Tree “Sample tree”',
  task: (t) => `Task: ${t.title}`,
  project: (p) => `Project: ${p.name}`,
};

function props(input: LayoutInput, extra: Partial<TreeDrawingProps> = {}): TreeDrawingProps {
  return { input, style: 'space-colonization', onOpenTask: () => {}, labels, ...extra };
}

function mount(p: TreeDrawingProps) {
  const root = doc.createElement('div');
  doc.body.appendChild(root);
  render(h(TreeDrawing, p), root);
  return root;
}

const input = sampleTree({ projects: 10, tasks: 200, nestEvery: 3 });

describe.each(['tidy-fan', 'space-colonization', 'lsystem'] as const)('TreeDrawing, %s', (style) => {
  it('is an svg role=img named for the tree, with a node per task and project', () => {
    const root = mount(props(input, { style }));
    const img = root.querySelector('svg[role="img"]');
    expect(img.getAttribute('aria-label')).toContain('Sample tree');
    const layout = layoutTree(input, style);
    const tasks = [...root.querySelectorAll('[data-task-id]')];
    expect(tasks.map((e: any) => e.getAttribute('data-task-id')).sort()).toEqual(layout.leaves.map((l) => l.id).sort());
    // The nodes sit inside the image (CONTRACT §15), focusable, named by a <title>, with no widget
    // role inside role="img" (axe: nested-interactive); the list view is the assistive route.
    expect(img.querySelectorAll('[data-task-id]').length).toBe(tasks.length);
    for (const e of tasks) {
      expect(e.getAttribute('tabindex')).toBe('0');
      expect(e.getAttribute('role')).toBeNull();
      expect(e.querySelector('title').textContent).toMatch(/^Task: /);
    }
    expect(img.querySelectorAll('[data-project-id]').length).toBe(input.projects.length);
    // Branches are a few paths grouped by width, not one element per segment.
    const branches = img.querySelectorAll('svg > g[fill="none"] > path').length;
    expect(branches).toBeGreaterThan(0);
    expect(branches).toBeLessThan(40);
  });
});

describe('TreeDrawing', () => {
  it('puts projects and leaves in the tab order of the tree: a project, its tasks, its sub-projects', () => {
    const root = mount(props(input));
    const order = [...root.querySelectorAll('[tabindex="0"]')].map(
      (e: any) => e.getAttribute('data-project-id') ?? e.getAttribute('data-task-id'),
    );
    const expected: string[] = [];
    const visit = (parent: string | null) => {
      for (const p of input.projects.filter((x) => x.parent_id === parent).sort((a, b) => a.position - b.position)) {
        expected.push(p.id);
        expected.push(
          ...input.tasks
            .filter((t) => t.project_id === p.id && t.status !== 'archived')
            .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))
            .map((t) => t.id),
        );
        visit(p.id);
      }
    };
    expected.push(
      ...input.tasks
        .filter((t) => t.project_id === null && t.status !== 'archived')
        .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))
        .map((t) => t.id),
    );
    visit(null);
    expect(order).toEqual(expected);
  });

  it('opens a task with Enter, Space or a click, and a project with Enter', () => {
    const opened: string[] = [];
    const projects: string[] = [];
    const root = mount(props(input, { onOpenTask: (id) => opened.push(id), onOpenProject: (id) => projects.push(id) }));
    const leaf = root.querySelector('[data-task-id]');
    const id = leaf.getAttribute('data-task-id');
    const KeyboardEvent = (globalThis as any).KeyboardEvent;
    for (const key of ['Enter', ' ', 'a', 'Tab'])
      leaf.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    leaf.dispatchEvent(new (globalThis as any).MouseEvent('click', { bubbles: true }));
    expect(opened).toEqual([id, id, id]);
    const knot = root.querySelector('[data-project-id]');
    knot.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    expect(projects).toEqual([knot.getAttribute('data-project-id')]);
  });

  it('marks done, highlighted and selected leaves, and hides archived ones', () => {
    const done = input.tasks.find((t) => t.status === 'done')!;
    const open = input.tasks.find((t) => t.status === 'open')!;
    const archived = input.tasks.find((t) => t.status === 'archived')!;
    const root = mount(props(input, { highlighted: new Set([open.id]), selectedId: done.id }));
    const leaf = (id: string) => root.querySelector(`[data-task-id="${id}"]`);
    expect(leaf(archived.id)).toBeNull();
    expect(leaf(done.id).getAttribute('class')).toContain('tree-leaf--done');
    expect(leaf(done.id).getAttribute('class')).toContain('tree-leaf--selected');
    expect(leaf(open.id).getAttribute('class')).toContain('tree-leaf--highlighted');
    expect(root.querySelectorAll('.tree-leaf--highlighted').length).toBe(1);
    // The rings are drawn where the marked leaves are, outside the accessibility tree.
    const ring = (kind: string) =>
      root.querySelector(`.tree-marks .tree-ring--${kind}`).parentNode.getAttribute('transform');
    const at = (id: string) => {
      const c = leaf(id);
      return `translate(${c.getAttribute('cx')} ${c.getAttribute('cy')})`;
    };
    expect(ring('highlighted')).toBe(at(open.id));
    expect(ring('selected')).toBe(at(done.id));
    expect(root.querySelectorAll('.tree-marks circle').length).toBe(2);
    expect(root.querySelector('.tree-marks').getAttribute('aria-hidden')).toBe('true');
    // Every done leaf that is drawn carries a check mark in the picture.
    const drawnDone = input.tasks.filter((t) => t.status === 'done' && leaf(t.id) !== null).length;
    expect(drawnDone).toBeGreaterThan(0);
    expect(root.querySelector('.tree-checks').getAttribute('d').match(/M/g).length).toBe(drawnDone);
  });

  it('paints the leaves as a few paths and keeps one light node per task (10,000 tasks draw in seconds)', () => {
    const root = mount(props(input));
    const img = root.querySelector('svg[role="img"]');
    const colours = new Set(input.tasks.map((t) => t.color)).size;
    const leafPaths = img.querySelectorAll('.tree-leaves path');
    // At most one path per colour and look (plain, deferred, done), the midribs and the checks.
    expect(leafPaths.length).toBeLessThanOrEqual(colours * 3 + 2);
    const subpaths = [...img.querySelectorAll('.tree-leaves path[fill]:not([fill="none"])')].reduce(
      (n: number, p: any) => n + p.getAttribute('d').match(/M/g).length,
      0,
    );
    const nodes = [...root.querySelectorAll('[data-task-id]')];
    expect(subpaths).toBe(nodes.length);
    // A task's node is one element and its title: no shapes of its own, no handler of its own.
    for (const node of nodes) {
      expect(node.children.length).toBe(1);
      expect(node.children[0].tagName.toLowerCase()).toBe('title');
    }
  });

  it('renders user text as text and uses no inline style (strict CSP)', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const hostile: LayoutInput = {
      treeId: 'x',
      name: evil,
      projects: [{ id: 'p', parent_id: null, name: evil, color: 'red;background:url(x)', position: 0 }],
      tasks: [{ id: 't', project_id: 'p', title: evil, color: '"><script>', status: 'todo', position: 0 }],
    };
    const html: string = renderToString(
      h(TreeDrawing, props(hostile, { labels: { drawing: evil, task: (t) => t.title, project: (p) => p.name } })),
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)>');
    const root = mount(props(hostile, { labels: { drawing: evil, task: (t) => t.title, project: (p) => p.name } }));
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('[data-task-id="t"] title').textContent).toBe(evil);
  });

  it('keeps every node through renders of the page, moving the marks and renaming on new labels', () => {
    const [a, b] = input.tasks.filter((t) => t.status !== 'archived');
    const root = doc.createElement('div');
    doc.body.appendChild(root);
    render(h(TreeDrawing, props(input, { highlighted: new Set([a!.id]), selectedId: a!.id })), root);
    const leaf = (id: string) => root.querySelector(`[data-task-id="${id}"]`);
    const count = root.querySelectorAll('[data-task-id]').length;
    const first = leaf(a!.id);
    expect(first.getAttribute('class')).toBe(
      `tree-leaf tree-leaf--${a!.status} tree-leaf--highlighted tree-leaf--selected`,
    );

    render(h(TreeDrawing, props(input, { highlighted: new Set([b!.id]), selectedId: null })), root);
    expect(root.querySelectorAll('[data-task-id]').length).toBe(count);
    expect(leaf(a!.id)).toBe(first); // the same element: not rebuilt for a selection
    expect(leaf(a!.id).getAttribute('class')).toBe(`tree-leaf tree-leaf--${a!.status}`);
    expect(leaf(b!.id).getAttribute('class')).toBe(`tree-leaf tree-leaf--${b!.status} tree-leaf--highlighted`);
    expect(root.querySelectorAll('.tree-leaf--highlighted, .tree-leaf--selected').length).toBe(1);

    const renamed = { ...labels, task: (t: { title: string }) => `Renamed: ${t.title}` };
    render(h(TreeDrawing, props(input, { highlighted: new Set([b!.id]), selectedId: null, labels: renamed })), root);
    expect(root.querySelectorAll('[data-task-id]').length).toBe(count);
    expect(leaf(b!.id).querySelector('title').textContent).toBe(`Renamed: ${b!.title}`);
    expect(leaf(b!.id).getAttribute('class')).toContain('tree-leaf--highlighted');
    render(null, root);
  });

  it('lays out once per input and style: highlighting and selecting only repaint', () => {
    let reads = 0;
    const counted = { ...input };
    Object.defineProperty(counted, 'tasks', {
      get: () => {
        reads++;
        return input.tasks;
      },
    });
    const root = doc.createElement('div');
    render(h(TreeDrawing, props(counted)), root);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    render(
      h(TreeDrawing, props(counted, { highlighted: new Set([input.tasks[0]!.id]), selectedId: input.tasks[1]!.id })),
      root,
    );
    expect(reads).toBe(afterFirst);
    render(h(TreeDrawing, props(counted, { style: 'lsystem' })), root);
    expect(reads).toBeGreaterThan(afterFirst);
  });
});
