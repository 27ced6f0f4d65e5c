import type { Actor } from './actor.js';
import type { TreeAccess } from './access.js';
import type { Db, DialectName, Trx } from '../store/db.js';
import { DomainError, notFound } from './errors.js';
import { compiledOnce } from '../store/compiled.js';
import { planLimits } from './plans.js';
import { lockOwner } from '../store/locks.js';

export function limitReached(limit: string, value: number): DomainError {
  return new DomainError('plan_limit_reached', `The plan allows at most ${value} (${limit.replaceAll('_', ' ')}).`, [
    { limit, value },
  ]);
}

/** Trees per owner. The owner lock makes count-then-insert atomic on PostgreSQL; SQLite has one writer. */
export async function checkTreeLimit(trx: Trx, dialect: DialectName, actor: Actor): Promise<void> {
  await lockOwner(trx, dialect, actor.user.id);
  const { n } = await trx
    .selectFrom('trees')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', actor.user.id)
    .executeTakeFirstOrThrow();
  const max = planLimits[actor.plan].trees;
  if (Number(n) >= max) throw limitReached('trees', max);
}

const moveCounters = compiledOnce((db, id: string, projects: number, tasks: number) =>
  db
    .updateTable('trees')
    .set((eb) => ({ project_count: eb('project_count', '+', projects), task_count: eb('task_count', '+', tasks) }))
    .where('id', '=', id)
    .returning(['project_count', 'task_count']),
);

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
  const [row] = await moveCounters(trx, access.tree.id, projects, tasks);
  if (row === undefined) throw notFound('tree');
  const limits = planLimits[access.ownerPlan];
  if (projects > 0 && row.project_count > limits.projectsPerTree)
    throw limitReached('projects_per_tree', limits.projectsPerTree);
  if (tasks > 0 && row.task_count > limits.tasksPerTree) throw limitReached('tasks_per_tree', limits.tasksPerTree);
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
  dialect: DialectName,
  owner: Pick<TreeAccess, 'ownerId' | 'ownerPlan'>,
  adding: number,
): Promise<void> {
  await lockOwner(trx, dialect, owner.ownerId);
  const limit = planLimits[owner.ownerPlan].attachmentBytes;
  if ((await storageUsed(trx, owner.ownerId)) + adding > limit) throw limitReached('attachment_storage_bytes', limit);
}
