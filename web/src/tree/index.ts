// The drawing's public face for the app: the layouts and the Preact component that draws them.
export type {
  Branch,
  Layout,
  LayoutInput,
  LayoutProject,
  LayoutTask,
  PlacedLeaf,
  PlacedProject,
  TreeDrawingProps,
  TreeShape,
  TreeStyle,
} from './types.js';
export { LEAF_SPACING, TREE_STYLES } from './types.js';
export { layoutTree } from './layout.js';
export { TreeDrawing } from './render.js';
export { TreeThumbnail } from './thumbnail.js';
