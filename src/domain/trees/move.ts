import type { Actor } from '../actor.js';
import type { DialectName, Trx } from '../../store/db.js';
import { requireTreeWrite, treeAccess, type TreeAccess } from '../access.js';
import { chargeTree } from '../limits.js';
import { lockTrees } from '../../store/locks.js';
import { appendHistory, type HistoryEntryInput } from './history.js';
import { nextVersion } from '../../store/task-version.js';

/** A tree the actor may write into, named by a patch's `tree_id`. @throws not_found, forbidden */
export async function writableTree(trx: Trx, actor: Actor, treeId: string): Promise<TreeAccess> {
  const access = await treeAccess(trx, actor, treeId);
  requireTreeWrite(access);
  return access;
}

/**
 * Re-reads a row after locking its tree and the destination, for writes that change where rows
 * sit (parent, project, tree). Checks made on what was read before the lock (no cycle, same
 * tree) can be made stale by a writer that committed meanwhile; made on this read they hold
 * until commit. When the row moved to another tree meanwhile, that tree is locked too.
 */
export async function readLocked<T extends { access: TreeAccess }>(
  trx: Trx,
  dialect: DialectName,
  first: T,
  read: () => Promise<T>,
  destination: TreeAccess | null,
): Promise<T> {
  const locked = new Set<string>();
  let current = first;
  for (;;) {
    const wanted = [current.access.tree.id, destination?.tree.id].filter((id): id is string => id !== undefined && !locked.has(id));
    if (wanted.length === 0) return current;
    if (!(await lockTrees(trx, dialect, wanted))) return current;
    for (const id of wanted) locked.add(id);
    current = await read();
    requireTreeWrite(current.access);
  }
}

/** What a move across trees carries: whole projects (their tasks follow) and single tasks. */
export interface Carried {
  projectIds: string[];
  taskIds: string[];
}

/**
 * Carries projects with their tasks, and single tasks, from one tree to another inside the
 * write's transaction: both trees' counters move (the destination refuses past its owner's plan)
 * and the rows take the destination's tree and owner. The caller writes the moved row's own patch.
 * @throws plan_limit_reached
 */
export async function carryToTree(trx: Trx, from: TreeAccess, to: TreeAccess, carried: Carried, now: string): Promise<void> {
  const { projectIds, taskIds } = carried;
  let taskCount = taskIds.length;
  if (projectIds.length > 0) {
    const { n } = await trx.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', 'in', projectIds).executeTakeFirstOrThrow();
    taskCount += Number(n);
  }
  await chargeTree(trx, from, { projects: -projectIds.length, tasks: -taskCount });
  await chargeTree(trx, to, { projects: projectIds.length, tasks: taskCount });
  const place = { tree_id: to.tree.id, owner_id: to.ownerId, updated_at: now };
  if (projectIds.length > 0) {
    await trx.updateTable('projects').set(place).where('id', 'in', projectIds).execute();
    await trx.updateTable('tasks').set({ ...place, version: nextVersion }).where('project_id', 'in', projectIds).execute();
  }
  if (taskIds.length > 0) await trx.updateTable('tasks').set({ ...place, version: nextVersion }).where('id', 'in', taskIds).execute();
}

/** The history entry of a write, in the tree the row is in now and, after a move, in the tree it left. */
export async function recordInTrees(trx: Trx, actor: Actor, from: TreeAccess, to: TreeAccess, entry: Omit<HistoryEntryInput, 'ownerId' | 'treeId'>, now: string): Promise<void> {
  await appendHistory(trx, actor, { ...entry, ownerId: to.ownerId, treeId: to.tree.id }, now);
  if (to.tree.id !== from.tree.id) await appendHistory(trx, actor, { ...entry, ownerId: from.ownerId, treeId: from.tree.id }, now);
}
