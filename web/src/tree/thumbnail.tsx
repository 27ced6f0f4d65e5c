/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// A tree's small drawing on its card (CONTRACT §18): the tree's own shape (GET /tree-shapes, no
// words), laid out by the same seeded code and painted by the same picture as the tree's page.
import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { layoutTree } from './layout.js';
import { paintLeaves } from './leafPaint.js';
import { branchPaths } from './paint.js';
import { Picture } from './picture.js';
import { shapeInput } from './shapeInput.js';
import type { TreeShape, TreeStyle } from './types.js';

export function TreeThumbnail(props: { shape: TreeShape | null; style: TreeStyle }): JSX.Element {
  const { shape, style } = props;
  const picture = useMemo(() => {
    if (shape === null) return null;
    const input = shapeInput(shape);
    const layout = layoutTree(input, style);
    const leaves = paintLeaves(layout.leaves, new Map(input.tasks.map((t) => [t.id, t])));
    return { layout, paths: branchPaths(layout.branches), leaves };
  }, [shape, style]);
  // Decoration: the card's link names the tree and its counts are text beside it. data-leaves
  // says how many leaves were drawn (tests compare it with the tree's tasks).
  if (picture === null) return <svg class="tree-thumb" viewBox="0 0 1 1" aria-hidden="true" focusable="false" />;
  const { width, height } = picture.layout;
  return (
    <svg
      class="tree-thumb"
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      focusable="false"
      data-leaves={picture.layout.leaves.length}
      data-projects={picture.layout.projects.length}
    >
      <Picture {...picture} />
    </svg>
  );
}
