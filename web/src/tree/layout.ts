// One pure, deterministic layout per tree style (no DOM, no Preact: tests run it in Node).
import { layoutLSystem } from './lsystem.js';
import { layoutSpaceColonization } from './spaceColonization.js';
import { layoutTidyFan } from './tidyFan.js';
import type { Layout, LayoutInput, TreeStyle } from './types.js';

const LAYOUTS: Record<TreeStyle, (input: LayoutInput) => Layout> = {
  'tidy-fan': layoutTidyFan,
  'space-colonization': layoutSpaceColonization,
  lsystem: layoutLSystem,
};

/** Deterministic, seeded from input.treeId; archived tasks are not placed. */
export function layoutTree(input: LayoutInput, style: TreeStyle): Layout {
  return LAYOUTS[style](input);
}
