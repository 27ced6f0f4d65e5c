import type { Trx } from '../../store/db.js';
import { chainLength, subtreeLinks } from '../../store/project-tree.js';
import { invalid } from '../errors.js';

/** CONTRACT §19: projects nest at most 64 levels; a top-level project is level 1. */
export const MAX_PROJECT_DEPTH = 64;

/** Why `levels` of nested projects are refused, or null when they are allowed. */
export function nestingProblem(levels: number): string | null {
  return levels > MAX_PROJECT_DEPTH ? `would nest projects ${levels} levels deep; at most ${MAX_PROJECT_DEPTH}` : null;
}

/**
 * How many levels a subtree spans, its root alone being 1: a walk down level by level over its
 * stored links, each project visited once, so even a cycle left in stored data ends it.
 */
function heightOf(rootId: string, links: { id: string; parent_id: string | null }[]): number {
  const children = new Map<string, string[]>();
  for (const { id, parent_id } of links) {
    if (parent_id === null) continue;
    const siblings = children.get(parent_id);
    if (siblings === undefined) children.set(parent_id, [id]);
    else siblings.push(id);
  }
  const seen = new Set([rootId]);
  let level = [rootId];
  let height = 0;
  while (level.length > 0) {
    height += 1;
    const next: string[] = [];
    for (const id of level) {
      for (const child of children.get(id) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        next.push(child);
      }
    }
    level = next;
  }
  return height;
}

/**
 * Refuses to place a project under `parentId` (null: at the tree's top) when it, or the deepest
 * project of its subtree when an existing project `movedId` moves, would sit deeper than allowed.
 * Made after the tree lock, so a parallel move cannot deepen the parent's chain meanwhile.
 * @throws validation_failed
 */
export async function checkNestingDepth(trx: Trx, parentId: string | null, movedId: string | null): Promise<void> {
  const above = parentId === null ? 0 : await chainLength(trx, parentId);
  const height = movedId === null ? 1 : heightOf(movedId, await subtreeLinks(trx, movedId));
  const problem = nestingProblem(above + height);
  if (problem !== null) throw invalid('/parent_id', problem);
}
