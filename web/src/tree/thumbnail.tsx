/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// A tree's small drawing on its card (CONTRACT §18): the same seeded layout and paint as the
// tree's page, in its style, drawn from what the trees list knows (its id, style and counts) so
// the list needs no tree's tasks (thumbnailInput.ts).
import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { layoutTree } from './layout.js';
import { paintLeaves } from './leafPaint.js';
import { branchPaths } from './paint.js';
import { Picture } from './picture.js';
import { thumbnailInput } from './thumbnailInput.js';
import type { TreeStyle } from './types.js';

export function TreeThumbnail(props: { treeId: string; style: TreeStyle; open: number; done: number }): JSX.Element {
  const { treeId, style, open, done } = props;
  const picture = useMemo(() => {
    const input = thumbnailInput(treeId, open, done);
    const layout = layoutTree(input, style);
    const leaves = paintLeaves(layout.leaves, new Map(input.tasks.map((t) => [t.id, t])));
    return { layout, paths: branchPaths(layout.branches), leaves };
  }, [treeId, style, open, done]);
  const { width, height } = picture.layout;
  // Decoration: the card's link names the tree and its counts are text beside it.
  return (
    <svg class="tree-thumb" viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
      <Picture {...picture} />
    </svg>
  );
}
