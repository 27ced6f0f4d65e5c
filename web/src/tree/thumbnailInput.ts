// What a tree's card draws: a stand-in of at most MAX_LEAVES leaves, in the tree's own proportion
// of open to done, under a few branches, laid out by the tree's style like the tree itself.
// Small on purpose: 50 cards lay out in well under a second.
import type { LayoutInput, LayoutTask } from './types.js';

const MAX_LEAVES = 24;
const LEAVES_PER_BRANCH = 8;
const COLOR = '#6b8e23';

/** The stand-in tree: `open + done` leaves (capped, in proportion) over one branch per eight. */
export function thumbnailInput(treeId: string, open: number, done: number): LayoutInput {
  const total = open + done;
  const leaves = Math.min(total, MAX_LEAVES);
  const doneLeaves = total === 0 ? 0 : Math.round((leaves * done) / total);
  const branches = Math.max(1, Math.min(5, Math.ceil(leaves / LEAVES_PER_BRANCH)));
  const projects = Array.from({ length: branches }, (_, i) => ({
    id: `${treeId}:p${i}`,
    parent_id: null,
    name: '',
    color: COLOR,
    position: i,
  }));
  const tasks: LayoutTask[] = Array.from({ length: leaves }, (_, i) => ({
    id: `${treeId}:t${String(i).padStart(2, '0')}`,
    project_id: projects[i % branches]!.id,
    title: '',
    color: COLOR,
    status: i < doneLeaves ? 'done' : 'todo',
    position: i,
  }));
  return { treeId, name: '', projects, tasks };
}
