import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { requireWrite } from '../actor.js';
import { usersWhoSee } from '../access.js';
import { presentTask, type Task } from '../records.js';
import { invalid } from '../errors.js';
import { checkPrecondition, type Precondition } from '../precondition.js';
import { nextVersion } from '../../store/task-version.js';
import { lockedTaskAccess } from './move.js';
import { write, type Write } from '../write.js';
import type { TaskRow } from '../../store/rows.js';

export const MAX_ASSIGNEES = 50;

/**
 * Replaces the task's assignees; each must be the tree owner or an active member. The task's tree
 * is locked as a move locks it, so the assignments are made in the tree the task is in at commit.
 * The same people in another order change nothing: no history entry, the same version.
 * @throws validation_failed, not_found, forbidden, precondition_failed
 */
export async function setAssignees(
  deps: Deps,
  actor: Actor,
  taskId: string,
  userIds: string[],
  precondition?: Precondition,
): Promise<Task> {
  requireWrite(actor);
  const wanted = [...new Set(userIds)];
  if (wanted.length > MAX_ASSIGNEES) throw invalid('/user_ids', `must hold at most ${MAX_ASSIGNEES} people`);
  wanted.forEach((id, i) => {
    if (id.length < 1 || id.length > 160) throw invalid(`/user_ids/${i}`, 'must be an id of 1 to 160 characters');
  });
  return write(deps, actor, async (w) => presentTask(await assignTask(w, taskId, wanted, precondition)));
}

/**
 * setAssignees' work inside a write, for it and for a revert (revert.ts). `onlyAllowed`: people
 * who can no longer see the tree are left out instead of refused (a revert puts back who still may
 * be assigned); `raiseVersion` false when the same change raised it already. Answers the row
 * as it is after the write.
 * @throws validation_failed, not_found, forbidden, precondition_failed
 */
export async function assignTask(
  w: Write,
  taskId: string,
  wanted: string[],
  precondition?: Precondition,
  onlyAllowed = false,
  raiseVersion = true,
): Promise<TaskRow> {
  const { trx } = w;
  const found = await lockedTaskAccess(w, taskId);
  // Who may be assigned is the request's validation: checked before the precondition. The
  // tree is locked, so a read again for the precondition finds the task in the same tree.
  const allowed = await usersWhoSee(trx, found.access, wanted);
  if (onlyAllowed) wanted = wanted.filter((id) => allowed.has(id));
  const refused = wanted.findIndex((id) => !allowed.has(id));
  if (refused >= 0) throw invalid(`/user_ids/${refused}`, 'must be the tree owner or an active member');
  const { task, access } = await checkPrecondition(
    w,
    precondition,
    'tasks',
    found,
    (f) => f.task,
    () => lockedTaskAccess(w, taskId),
    'always',
  );
  const before = JSON.parse(task.assignee_ids) as string[];
  const after = wanted.slice().sort();
  if (JSON.stringify(before) === JSON.stringify(after)) return task;
  const { now } = w;
  await trx.deleteFrom('task_assignees').where('task_id', '=', taskId).execute();
  if (after.length > 0) {
    await trx
      .insertInto('task_assignees')
      .values(
        after.map((user_id) => ({
          task_id: taskId,
          user_id,
          owner_id: access.ownerId,
          tree_id: access.tree.id,
          created_at: now,
        })),
      )
      .execute();
  }
  const updated = await trx
    .updateTable('tasks')
    .set({ assignee_ids: JSON.stringify(after), updated_at: now, ...(raiseVersion ? { version: nextVersion } : {}) })
    .where('id', '=', taskId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await w.record({
    ownerId: access.ownerId,
    treeId: access.tree.id,
    entity: 'task',
    entityId: taskId,
    action: 'updated',
    changes: { assignee_ids: { from: before, to: after } },
  });
  return updated;
}
