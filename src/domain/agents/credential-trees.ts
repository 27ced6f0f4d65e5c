import type { Actor } from '../actor.js';
import type { Db, Trx } from '../../store/db.js';
import { inVisibleTrees, treeAccess, visibleTrees } from '../access.js';
import { invalid } from '../errors.js';
import { checkId } from '../fields.js';

/**
 * The trees a personal token or OAuth grant is limited to (CONTRACT §16.1): chosen when it is
 * made, stored space-separated in its `tree_ids` column, and carried as `Actor.trees` on every
 * request it makes. What a scope means for access is decided in access.ts, not here.
 */

export const CREDENTIAL_TREES_MAX = 50;

/** 1 to 50 distinct ids, or null (every tree). @throws validation_failed */
export function checkTreeIds(path: string, ids: readonly string[] | null | undefined): string[] | null {
  if (ids === undefined || ids === null) return null;
  if (!Array.isArray(ids)) throw invalid(path, 'must be a list of tree ids or null');
  if (ids.length < 1 || ids.length > CREDENTIAL_TREES_MAX)
    throw invalid(path, `must name 1 to ${CREDENTIAL_TREES_MAX} trees, or be null for every tree`);
  for (const [i, id] of ids.entries()) {
    if (typeof id !== 'string') throw invalid(`${path}/${i}`, 'must be a tree id');
    checkId(`${path}/${i}`, id);
    if (ids.indexOf(id) !== i) throw invalid(`${path}/${i}`, 'must not repeat a tree');
  }
  return [...ids];
}

/**
 * Each id must be a tree the actor (the person making the credential) can see now: their own,
 * or one shared with them by a membership that grants access. @throws not_found (nothing is made)
 */
export async function requireVisibleTrees(db: Db | Trx, actor: Actor, ids: readonly string[] | null): Promise<void> {
  if (ids === null) return;
  for (const id of ids) await treeAccess(db, actor, id);
}

/** The trees the actor could limit a credential to (all they can see now), in creation order, for the consent page. */
export async function choosableTrees(db: Db | Trx, actor: Actor): Promise<{ id: string; name: string }[]> {
  const visible = await visibleTrees(db, actor);
  return db.selectFrom('trees').select(['id', 'name']).where(inVisibleTrees(visible, 'id')).orderBy('seq').execute();
}

/** What the `tree_ids` column keeps. */
export function storedTreeIds(ids: readonly string[] | null): string | null {
  return ids === null ? null : ids.join(' ');
}

/** The record's `tree_ids`, as chosen. */
export function parseTreeIds(stored: string | null): string[] | null {
  return stored === null ? null : stored.split(' ').filter((id) => id !== '');
}

/** The actor's `trees`, parsed once per credential lookup. */
export function treeScopeOf(stored: string | null): ReadonlySet<string> | null {
  const ids = parseTreeIds(stored);
  return ids === null ? null : new Set(ids);
}
