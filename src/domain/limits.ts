import type { Actor } from './actor.js';
import { inScope, ownAccess, requireTreeWrite, treeAccess, type TreeAccess } from './access.js';
import { isStorableId } from './fields.js';
import type { Db, Trx } from '../store/db.js';
import { DomainError, notFound } from './errors.js';
import { chargeOwnTree, moveTreeCounters } from '../store/tree-counters.js';
import { planLimits, type PlanName } from './plans.js';
import { lockOwner } from '../store/locks.js';

export function limitReached(limit: string, value: number): DomainError {
  return new DomainError('plan_limit_reached', `The plan allows at most ${value} (${limit.replaceAll('_', ' ')}).`, [
    { limit, value },
  ]);
}

/** Trees per owner. The owner lock makes count-then-insert atomic on PostgreSQL; SQLite has one writer. */
export async function checkTreeLimit(trx: Trx, actor: Actor): Promise<void> {
  await lockOwner(trx, actor.user.id);
  const { n } = await trx
    .selectFrom('trees')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', actor.user.id)
    .executeTakeFirstOrThrow();
  const max = planLimits[actor.plan].trees;
  if (Number(n) >= max) throw limitReached('trees', max);
}

/**
 * Moves the tree's counters by `delta` and refuses when a growth passes the owner's plan. The
 * UPDATE takes the tree row's write lock first, so concurrent creates in one tree queue behind
 * it and the check after it sees every earlier commit: exactly the limit ever succeeds.
 */
export async function chargeTree(
  trx: Trx,
  access: TreeAccess,
  delta: { projects?: number; tasks?: number },
): Promise<void> {
  const projects = delta.projects ?? 0;
  const tasks = delta.tasks ?? 0;
  if (projects === 0 && tasks === 0) return;
  const row = await moveTreeCounters(trx, access.tree.id, projects, tasks);
  if (row === undefined) throw notFound('tree');
  checkCharged(access.ownerPlan, delta, row);
}

/** Counters moved by `delta` may not pass the owner's plan where they grew. @throws plan_limit_reached */
export function checkCharged(
  ownerPlan: PlanName,
  delta: { projects?: number; tasks?: number },
  counters: { project_count: number; task_count: number },
): void {
  const limits = planLimits[ownerPlan];
  if ((delta.projects ?? 0) > 0 && counters.project_count > limits.projectsPerTree)
    throw limitReached('projects_per_tree', limits.projectsPerTree);
  if ((delta.tasks ?? 0) > 0 && counters.task_count > limits.tasksPerTree)
    throw limitReached('tasks_per_tree', limits.tasksPerTree);
}

/**
 * A create's first step in a tree the actor may write into: the access, and one more task on the
 * tree's counter (whose row lock queues concurrent creates of the tree). The actor's own tree
 * takes one statement (see chargeOwnTree), which may bring the last sibling's position of
 * `projectId` along; any other tree is resolved and charged as treeAccess and chargeTree do. The
 * plan limit is left to the caller (checkCharged on the answered tree), after its own checks.
 * @throws not_found, forbidden
 */
export async function chargeOneTask(
  trx: Trx,
  actor: Actor,
  treeId: string,
  projectId: string | null,
): Promise<{ access: TreeAccess; lastPosition: number | null | undefined }> {
  // A tree outside a scoped credential's trees is a foreign one (CONTRACT §16.1), own or not.
  if (!isStorableId(treeId) || !inScope(actor, treeId)) throw notFound('tree');
  // A project id no record can have is the caller's not_found to answer; the position is then moot.
  const siblingsOf = projectId === null || isStorableId(projectId) ? projectId : null;
  const own = await chargeOwnTree(trx, treeId, actor.user.id, 1, siblingsOf);
  if (own !== undefined) return { access: ownAccess(actor, own.tree), lastPosition: own.lastPosition };
  const access = await treeAccess(trx, actor, treeId);
  requireTreeWrite(access);
  const counters = await moveTreeCounters(trx, access.tree.id, 0, 1);
  if (counters === undefined) throw notFound('tree');
  return { access: { ...access, tree: { ...access.tree, ...counters } }, lastPosition: undefined };
}

/** The attachment bytes charged to an owner: every attachment whose row names them. */
export async function storageUsed(db: Db | Trx, ownerId: string): Promise<number> {
  const { used } = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('used'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(used);
}

/**
 * Storage per owner (CONTRACT §4), counted under the owner lock so parallel uploads, and moves
 * that bring attachments along, cannot pass it together.
 * @throws plan_limit_reached
 */
export async function checkStorage(
  trx: Trx,
  owner: Pick<TreeAccess, 'ownerId' | 'ownerPlan'>,
  adding: number,
): Promise<void> {
  await lockOwner(trx, owner.ownerId);
  const limit = planLimits[owner.ownerPlan].attachmentBytes;
  if ((await storageUsed(trx, owner.ownerId)) + adding > limit) throw limitReached('attachment_storage_bytes', limit);
}
