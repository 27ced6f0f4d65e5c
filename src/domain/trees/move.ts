import type { Actor } from '../actor.js';
import type { Trx } from '../../store/db.js';
import { requireTreeWrite, taskAccess, treeAccess, usersWhoSee, type TaskRow, type TreeAccess } from '../access.js';
import { chargeTree, checkStorage } from '../limits.js';
import type { Write } from '../write.js';
import type { Changes, HistoryEntryInput } from './history.js';
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
  w: Write,
  first: T,
  read: () => Promise<T>,
  destination: TreeAccess | null,
): Promise<T> {
  const locked = new Set<string>();
  let current = first;
  for (;;) {
    const wanted = [current.access.tree.id, destination?.tree.id].filter(
      (id): id is string => id !== undefined && !locked.has(id),
    );
    if (wanted.length === 0) return current;
    if (!(await w.lockTrees(wanted))) return current;
    for (const id of wanted) locked.add(id);
    current = await read();
    requireTreeWrite(current.access);
  }
}

/**
 * A task the actor may write in, read after its tree is locked as a move locks it: rows added
 * under the task (comments, attachments, assignments) then land in the tree the task is in when
 * they commit, and a move that commits meanwhile finds and carries them.
 * @throws not_found, forbidden
 */
export async function lockedTaskAccess(w: Write, taskId: string): Promise<{ task: TaskRow; access: TreeAccess }> {
  const first = await taskAccess(w.trx, w.actor, taskId);
  requireTreeWrite(first.access);
  return readLocked(w, first, () => taskAccess(w.trx, w.actor, taskId), null);
}

/** What a move across trees carries: whole projects (their tasks follow) and single tasks. */
export interface Carried {
  projectIds: string[];
  taskIds: string[];
}

/**
 * Carries projects with their tasks, and single tasks, from one tree to another inside the
 * write's transaction, with everything that hangs off those tasks (CONTRACT §19): both trees'
 * counters move and the destination owner's storage takes the attachments (either refuses past
 * the destination owner's plan, and then nothing has moved); the rows take the destination's
 * tree, owner and a version one higher; assignees who cannot see the destination are dropped
 * (within that same change). The caller writes the moved row's own patch.
 * @throws plan_limit_reached
 */
export async function carryToTree(w: Write, from: TreeAccess, to: TreeAccess, carried: Carried): Promise<void> {
  const { trx, now } = w;
  const { projectIds, taskIds } = carried;
  let taskCount = taskIds.length;
  if (projectIds.length > 0) {
    const { n } = await trx
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', 'in', projectIds)
      .executeTakeFirstOrThrow();
    taskCount += Number(n);
  }
  await chargeTree(trx, from, { projects: -projectIds.length, tasks: -taskCount });
  await chargeTree(trx, to, { projects: projectIds.length, tasks: taskCount });
  const tasks = carriedTasks(trx, carried);
  await carryAttachments(trx, to, tasks);
  // Every carried project and task changes its tree: each version rises by one here, the moved
  // record's too (the caller's own patch of it then leaves its version as the carry set it).
  const place = { tree_id: to.tree.id, owner_id: to.ownerId, updated_at: now, version: nextVersion };
  if (projectIds.length > 0) {
    await trx.updateTable('projects').set(place).where('id', 'in', projectIds).execute();
    await trx.updateTable('tasks').set(place).where('project_id', 'in', projectIds).execute();
  }
  if (taskIds.length > 0) await trx.updateTable('tasks').set(place).where('id', 'in', taskIds).execute();
  const owned = { owner_id: to.ownerId };
  await trx
    .updateTable('comments')
    .set({ ...owned, tree_id: to.tree.id })
    .where('task_id', 'in', tasks)
    .execute();
  await trx.updateTable('speech_jobs').set(owned).where('task_id', 'in', tasks).execute();
  await carryAssignees(trx, to, tasks);
}

/**
 * The ids of the carried tasks, as a subquery: a project may hold more tasks than a statement
 * may bind values. Neither the projects nor the task ids change in a move, so it names the
 * same tasks before and after their rows are moved.
 */
function carriedTasks(trx: Trx, { projectIds, taskIds }: Carried) {
  return trx
    .selectFrom('tasks')
    .select('id')
    .where((eb) =>
      eb.or([
        ...(taskIds.length > 0 ? [eb('id', 'in', taskIds)] : []),
        ...(projectIds.length > 0 ? [eb('project_id', 'in', projectIds)] : []),
      ]),
    );
}

type TaskIds = ReturnType<typeof carriedTasks>;

/** The carried attachments count against the destination owner from now on; their content stays where it is stored. @throws plan_limit_reached */
async function carryAttachments(trx: Trx, to: TreeAccess, tasks: TaskIds): Promise<void> {
  const { bytes } = await trx
    .selectFrom('attachments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
    .where('task_id', 'in', tasks)
    .where('owner_id', '<>', to.ownerId)
    .executeTakeFirstOrThrow();
  if (Number(bytes) === 0) return;
  await checkStorage(trx, to, Number(bytes));
  await trx.updateTable('attachments').set({ owner_id: to.ownerId }).where('task_id', 'in', tasks).execute();
}

/** Assignments follow their tasks; whoever cannot see the destination tree loses theirs, and the tasks' lists say so. */
async function carryAssignees(trx: Trx, to: TreeAccess, tasks: TaskIds): Promise<void> {
  const rows = await trx
    .selectFrom('task_assignees')
    .select(['task_id', 'user_id'])
    .where('task_id', 'in', tasks)
    .execute();
  if (rows.length === 0) return;
  const allowed = await usersWhoSee(trx, to, [...new Set(rows.map((row) => row.user_id))]);
  const dropped = rows.filter((row) => !allowed.has(row.user_id));
  if (dropped.length > 0) {
    await trx
      .deleteFrom('task_assignees')
      .where('task_id', 'in', tasks)
      .where('user_id', 'in', [...new Set(dropped.map((row) => row.user_id))])
      .execute();
  }
  await trx
    .updateTable('task_assignees')
    .set({ owner_id: to.ownerId, tree_id: to.tree.id })
    .where('task_id', 'in', tasks)
    .execute();
  const kept = new Map<string, string[]>(dropped.map((row) => [row.task_id, []]));
  for (const row of rows) if (allowed.has(row.user_id)) kept.get(row.task_id)?.push(row.user_id);
  for (const [taskId, userIds] of kept) {
    await trx
      .updateTable('tasks')
      .set({ assignee_ids: JSON.stringify(userIds.sort()) })
      .where('id', '=', taskId)
      .execute();
  }
}

/**
 * The history entry of a write, in the tree the row is in now. A move across trees also writes a
 * `moved` entry in the tree it left that names only the trees (CONTRACT §19): nothing else of the
 * record, such as a title given with the move, stays where it no longer is. The destination's
 * entry leaves out the record's place in the source tree (a project or parent there), which the
 * destination cannot see.
 */
export async function recordInTrees(
  w: Write,
  from: TreeAccess,
  to: TreeAccess,
  entry: Omit<HistoryEntryInput, 'ownerId' | 'treeId'>,
): Promise<void> {
  const changes = entry.changes ?? {};
  if (to.tree.id === from.tree.id) {
    await w.record({ ...entry, ownerId: to.ownerId, treeId: to.tree.id });
    return;
  }
  await w.record({ ...entry, ownerId: to.ownerId, treeId: to.tree.id, changes: withoutSourcePlace(changes) });
  // The place it had in the tree it left is kept for a revert (CONTRACT §16.3), never shown.
  const place = Object.fromEntries(Object.entries(changes).filter(([field]) => PLACE_FIELDS.includes(field)));
  await w.record({
    ...entry,
    ownerId: from.ownerId,
    treeId: from.tree.id,
    changes: { tree_id: { from: from.tree.id, to: to.tree.id } },
    ...(Object.keys(place).length > 0 ? { restore: { ...entry.restore, ...place } } : {}),
  });
}

/** The fields that name a record's place inside its tree: after a move across trees their `from` is in the other tree. */
const PLACE_FIELDS = ['project_id', 'parent_id'];

function withoutSourcePlace(changes: Changes): Changes {
  const kept: Changes = {};
  for (const [field, change] of Object.entries(changes)) {
    if (!PLACE_FIELDS.includes(field)) kept[field] = change;
    else if (change.to !== null) kept[field] = { from: null, to: change.to };
  }
  return kept;
}

/**
 * Every record a project's move across trees carried along besides the project (its descendant
 * projects and the tasks of the whole subtree) gets its own `moved` entry in both trees, naming
 * only the trees (CONTRACT §16.3: each record a change alters has its entry; §19: nothing else).
 * Written after the project's own entries, so a revert moves the project back first.
 */
export async function recordCarried(
  w: Write,
  from: TreeAccess,
  to: TreeAccess,
  subtree: readonly string[],
  projectId: string,
  assignedBefore: ReadonlyMap<string, string>,
): Promise<void> {
  const tasks =
    subtree.length === 0
      ? []
      : await w.trx
          .selectFrom('tasks')
          .select(['id', 'assignee_ids'])
          .where('project_id', 'in', subtree)
          .orderBy('seq')
          .execute();
  const changes = { tree_id: { from: from.tree.id, to: to.tree.id } };
  const entry = (entity: HistoryEntryInput['entity'], entityId: string, restore?: Changes) =>
    [to, from].map((tree): HistoryEntryInput => ({
      ownerId: tree.ownerId,
      treeId: tree.tree.id,
      entity,
      entityId,
      action: 'moved',
      changes,
      ...(restore !== undefined ? { restore } : {}),
    }));
  const entries = [
    ...subtree.filter((id) => id !== projectId).flatMap((id) => entry('project', id)),
    ...tasks.flatMap((t) => {
      // The assignees the move dropped (they cannot see the destination) are kept for a revert.
      const before = assignedBefore.get(t.id);
      const dropped = before !== undefined && before !== t.assignee_ids;
      return entry(
        'task',
        t.id,
        dropped ? { assignee_ids: { from: JSON.parse(before), to: JSON.parse(t.assignee_ids) } } : undefined,
      );
    }),
  ];
  if (entries.length > 0) await w.recordAll(entries);
}
