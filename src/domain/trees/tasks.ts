import { sql, type SqlBool } from 'kysely';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import type { NewTaskRow } from '../../store/rows.js';
import { collectDoomed } from '../cleanup.js';
import { requireRead, requireWrite } from '../actor.js';
import {
  inScope,
  projectAccess,
  readableTask,
  readableTaskVersion,
  requireTreeWrite,
  taskAccess,
  treeAccess,
  visibleTrees,
  type TaskRow,
  type TreeAccess,
} from '../access.js';
import { DEFAULT_COLOR, presentTask, taskStatuses, type Task } from '../records.js';
import { parseUpdatedSince, type Page, type PageInput } from '../paging.js';
import { andFilters, listPage } from '../list-page.js';
import { changedFields, diff, type Changes, type HistoryEntryInput } from './history.js';
import { chargeOneTask, chargeTree, checkCharged } from '../limits.js';
import { checkColor, checkPosition, isStorableId, positionAfter, NOTES_MAX, TEXT_MAX, TITLE_MAX } from '../fields.js';
import { POSITION_MIN } from '../field-bounds.js';
import { planLimits } from '../plans.js';
import { normalizeDeadline } from './deadline.js';
import { deadlineFilter, type DeadlineBounds } from './deadline-range.js';
import { checkEnum, checkLength, checkName } from '../validate.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { refreshTaskStatistics } from '../../store/statistics.js';
import { insertLooseTaskAlone, insertTask, insertTasks, lastSiblingPosition } from '../../store/tasks.js';
import { write, type Write } from '../write.js';
import { carryToTree, lockedTaskAccess, readLocked, recordInTrees, writableTree } from './move.js';
import { nextVersion } from '../../store/task-version.js';
import { deletedTaskEntry } from './deleted-entries.js';
import { checkPrecondition, type Precondition } from '../precondition.js';

export interface TaskInput {
  tree_id: string;
  project_id?: string | null;
  title: string;
  text?: string;
  notes?: string;
  status?: string;
  deadline?: string | null;
  color?: string;
  position?: number;
}

export type TaskPatch = Partial<TaskInput>;

export interface TaskFilters extends PageInput, DeadlineBounds {
  updated_since?: string;
  tree_id?: string;
  project_id?: string;
  status?: string;
  assignee_id?: string;
}

/** Validates the fields present and returns the deadline in its stored form. */
export function checkTaskFields(input: TaskPatch): string | null | undefined {
  if (input.title !== undefined) checkName('/title', input.title, TITLE_MAX);
  if (input.text !== undefined) checkLength('/text', input.text, 0, TEXT_MAX);
  if (input.notes !== undefined) checkLength('/notes', input.notes, 0, NOTES_MAX);
  if (input.status !== undefined) checkEnum('/status', input.status, taskStatuses);
  if (input.color !== undefined) checkColor('/color', input.color);
  if (input.position !== undefined) checkPosition('/position', input.position);
  return input.deadline === undefined ? undefined : normalizeDeadline(input.deadline);
}

export async function listTasks(deps: Deps, actor: Actor, input: TaskFilters): Promise<Page<Task>> {
  requireRead(actor);
  const since = parseUpdatedSince(input.updated_since);
  if (input.status !== undefined) checkEnum('/status', input.status, taskStatuses);
  const deadlines = deadlineFilter(input, actor.user.timezone);
  if (input.tree_id !== undefined) await treeAccess(deps.db, actor, input.tree_id);
  if (input.project_id !== undefined) await projectAccess(deps.db, actor, input.project_id);
  const also = andFilters([
    input.assignee_id === undefined
      ? undefined
      : {
          filters: { assignee_id: input.assignee_id },
          where: sql<SqlBool>`id in (select task_id from task_assignees where user_id = ${input.assignee_id})`,
        },
    deadlines,
  ]);
  const { rows, next_cursor } = await listPage(
    deps,
    actor,
    {
      table: 'tasks',
      endpoint: 'tasks',
      visible: { trees: await visibleTrees(deps.db, actor) },
      since,
      equal: { tree_id: input.tree_id, project_id: input.project_id, status: input.status },
      ...(also !== undefined ? { also } : {}),
      // A closed window of deadlines is narrow; one open at an end (Overdue, everything due) is not.
      selective: input.deadline_after !== undefined && input.deadline_before !== undefined,
    },
    input,
  );
  return { items: rows.map(presentTask), next_cursor };
}

export async function getTask(deps: Deps, actor: Actor, id: string): Promise<Task> {
  return (await getVersionedTask(deps, actor, id)).task;
}

/** The row version of a task the actor may read: a conditional read compares it before reading the task. */
export async function getTaskVersion(deps: Deps, actor: Actor, id: string): Promise<number> {
  requireRead(actor);
  return readableTaskVersion(deps.db, actor, id);
}

/** A task with its row version, which a conditional read compares instead of the body. */
export async function getVersionedTask(deps: Deps, actor: Actor, id: string): Promise<{ task: Task; version: number }> {
  requireRead(actor);
  const task = await readableTask(deps.db, actor, id);
  return { task: presentTask(task), version: task.version };
}

/** A task's project must be a project of the task's tree. @throws not_found (unknown or foreign), conflict (other tree) */
export async function checkProject(trx: Trx, actor: Actor, projectId: string, treeId: string): Promise<void> {
  const { project } = await projectAccess(trx, actor, projectId);
  if (project.tree_id !== treeId) {
    throw new DomainError('conflict', "The project belongs to another tree than the task's.", [
      { path: '/project_id', message: "must be a project of the task's tree" },
    ]);
  }
}

export async function nextPosition(trx: Trx, treeId: string, projectId: string | null): Promise<number> {
  return positionAfter(await lastSiblingPosition(trx, treeId, projectId));
}

/**
 * The places of many new tasks of one tree, asked in order (a batch, a bulk insert, an import):
 * each goes where a lone create after the ones before it would put it, after the highest position
 * so far among its siblings, a given one included. Each sibling list's last position is read once.
 */
export function siblingPlaces(
  trx: Trx,
  treeId: string,
): (projectId: string | null, given?: number | null) => Promise<number> {
  const highest = new Map<string | null, number | null>();
  return async (projectId, given) => {
    let top = highest.get(projectId);
    if (top === undefined) top = await lastSiblingPosition(trx, treeId, projectId);
    const position = given ?? positionAfter(top);
    highest.set(projectId, top === null ? position : Math.max(top, position));
    return position;
  };
}

export function newTaskRow(
  access: Pick<TreeAccess, 'ownerId'> & { tree: { id: string } },
  actor: Actor,
  input: TaskInput,
  deadline: string | null,
  position: number,
  now: string,
): NewTaskRow {
  const status = input.status ?? 'todo';
  return {
    id: newId('tsk'),
    owner_id: access.ownerId,
    tree_id: access.tree.id,
    project_id: input.project_id ?? null,
    title: input.title,
    text: input.text ?? '',
    notes: input.notes ?? '',
    status,
    deadline,
    color: input.color ?? DEFAULT_COLOR,
    position,
    completed_at: status === 'done' ? now : null,
    created_by: actor.user.id,
    assignee_ids: '[]',
    created_at: now,
    updated_at: now,
  };
}

/**
 * The one copy of a create's rules: write access to the tree, the project in that tree, the
 * plan's task limit, the place after the last sibling, the history entry. Concurrent creates
 * into one tree share a commit (the runner's batch); each is answered once it has committed.
 * @throws validation_failed, not_found, conflict, forbidden, plan_limit_reached
 */
export async function createTask(deps: Deps, actor: Actor, input: TaskInput): Promise<Task> {
  requireWrite(actor);
  const deadline = checkTaskFields(input) ?? null;
  return write(
    deps,
    actor,
    async (w) => {
      const projectId = input.project_id ?? null;
      const { access, lastPosition } = await chargeOneTask(w.trx, actor, input.tree_id, projectId);
      // The project must still be in this tree at commit: a parallel move of it takes the same lock.
      if (projectId !== null) {
        await w.lockTrees([access.tree.id]);
        await checkProject(w.trx, actor, projectId, access.tree.id);
      }
      checkCharged(access.ownerPlan, { tasks: 1 }, access.tree);
      const position =
        input.position ??
        (lastPosition !== undefined
          ? positionAfter(lastPosition)
          : await nextPosition(w.trx, access.tree.id, projectId));
      const row = newTaskRow(access, actor, input, deadline, position, w.now);
      return presentTask(await insertTask(w.trx, row, w.entry(createdEntry(access.ownerId, row))));
    },
    {
      batch: input.tree_id,
      // A loose task in the actor's own tree: the same row, entry and limit in one statement,
      // which writes only when it is sure of all of them (insertLooseTaskAlone).
      alone:
        input.project_id == null && isStorableId(input.tree_id) && inScope(actor, input.tree_id)
          ? async (w) => {
              const own = { ownerId: actor.user.id, tree: { id: input.tree_id } };
              const row = newTaskRow(own, actor, input, deadline, input.position ?? POSITION_MIN, w.now);
              const entry = w.entry(createdEntry(own.ownerId, row));
              const maxTasks = planLimits[actor.plan].tasksPerTree;
              const inserted = await insertLooseTaskAlone(w.db, row, input.position ?? null, entry, maxTasks);
              return inserted === undefined ? undefined : presentTask(inserted);
            }
          : undefined,
    },
  );
}

/** The history entry of a created task. */
export function createdEntry(
  ownerId: string,
  row: { id: string; tree_id: string; title: string; status: string },
): HistoryEntryInput {
  return {
    ownerId,
    treeId: row.tree_id,
    entity: 'task',
    entityId: row.id,
    action: 'created',
    changes: { title: { from: null, to: row.title }, status: { from: null, to: row.status } },
  };
}

/**
 * The fast path for many tasks in one tree (seeding, imports): the same rules and limits as
 * createTask, one transaction, multi-row inserts, and an `imported` history entry per task.
 */
export async function insertTasksBulk(
  deps: Deps,
  actor: Actor,
  treeId: string,
  inputs: Omit<TaskInput, 'tree_id'>[],
): Promise<number> {
  requireWrite(actor);
  const deadlines = inputs.map((input) => checkTaskFields(input) ?? null);
  const inserted = await write(deps, actor, async (w) => {
    const access = await treeAccess(w.trx, actor, treeId);
    requireTreeWrite(access);
    const projectIds = new Set(inputs.map((i) => i.project_id).filter((p): p is string => typeof p === 'string'));
    // As in createTask: the projects must still be in this tree at commit.
    if (projectIds.size > 0) await w.lockTrees([treeId]);
    for (const projectId of projectIds) await checkProject(w.trx, actor, projectId, treeId);
    await chargeTree(w.trx, access, { tasks: inputs.length });
    const place = siblingPlaces(w.trx, treeId);
    const rows = [];
    for (const [i, input] of inputs.entries()) {
      const position = await place(input.project_id ?? null, input.position);
      rows.push(newTaskRow(access, actor, { ...input, tree_id: treeId }, deadlines[i]!, position, w.now));
    }
    await insertTasks(w.trx, rows);
    // One entry per task (CONTRACT §16.3), all of one change.
    await w.recordAll(rows.map((row) => ({ ...createdEntry(access.ownerId, row), action: 'imported' as const })));
    return rows.length;
  });
  // Search plans from fresh statistics once an import has changed the table's size a lot.
  if (inserted >= ANALYZE_AFTER) await refreshTaskStatistics(deps.db);
  return inserted;
}

const ANALYZE_AFTER = 5_000;

/** A found task's row, for checkPrecondition. */
const taskOf = (found: { task: TaskRow }) => found.task;

/**
 * Moving a task to another tree clears its project unless a project of the new tree is named.
 * A patch that changes nothing writes nothing and answers the task as it is.
 * @throws validation_failed, not_found, forbidden, precondition_failed, conflict, plan_limit_reached
 */
export async function updateTask(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: TaskPatch,
  precondition?: Precondition,
): Promise<Task> {
  requireWrite(actor);
  const deadline = checkTaskFields(patch);
  return write(deps, actor, async (w) => presentTask(await patchTask(w, id, patch, deadline, precondition)));
}

/** What a revert sets besides a patch's fields: the completion time as it was (CONTRACT §16.3). */
export interface TaskRestore {
  completedAt?: string | null;
}

/**
 * updateTask's work inside a write, for it and for a revert (revert.ts): the same checks, carry,
 * version and history entry. `deadline` is the patch's deadline in its stored form. Answers the
 * row as it is after the write (unchanged when the patch changes nothing).
 * @throws not_found, forbidden, precondition_failed, conflict, plan_limit_reached
 */
export async function patchTask(
  w: Write,
  id: string,
  patch: TaskPatch,
  deadline: string | null | undefined,
  precondition?: Precondition,
  restore: TaskRestore = {},
): Promise<TaskRow> {
  const { trx, now, actor } = w;
  const readable = async () => {
    const found = await taskAccess(trx, actor, id);
    requireTreeWrite(found.access);
    return found;
  };
  const first = await readable();
  const destination = patch.tree_id === undefined ? null : await writableTree(trx, actor, patch.tree_id);
  const moves = patch.tree_id !== undefined || patch.project_id !== undefined;
  const settled = async (found: typeof first) =>
    moves ? readLocked(w, found, () => taskAccess(trx, actor, id), destination) : found;
  const { task, access } = await checkPrecondition(
    w,
    precondition,
    'tasks',
    await settled(first),
    taskOf,
    async () => settled(await readable()),
    'always',
  );
  const target = destination ?? access;
  const movingTree = target.tree.id !== task.tree_id;
  const projectId = patch.project_id !== undefined ? patch.project_id : movingTree ? null : task.project_id;
  if (projectId !== null && (movingTree || projectId !== task.project_id))
    await checkProject(trx, actor, projectId, target.tree.id);
  const status = patch.status ?? task.status;
  const next = {
    tree_id: target.tree.id,
    project_id: projectId,
    title: patch.title ?? task.title,
    text: patch.text ?? task.text,
    notes: patch.notes ?? task.notes,
    status,
    deadline: deadline === undefined ? task.deadline : deadline,
    color: patch.color ?? task.color,
    position: patch.position ?? task.position,
  };
  const changes = diff(task as unknown as Record<string, unknown>, next);
  const completedAt =
    restore.completedAt !== undefined && status === 'done'
      ? restore.completedAt
      : status === 'done'
        ? task.status === 'done'
          ? task.completed_at
          : now
        : null;
  if (Object.keys(changes).length === 0 && completedAt === task.completed_at) return task;
  if (movingTree) await carryToTree(w, access, target, { projectIds: [], taskIds: [id] });
  const updated = await trx
    .updateTable('tasks')
    .set({
      ...changedFields(next, changes),
      // A move's carry has raised the version already: one change, one step.
      ...(movingTree ? { owner_id: target.ownerId } : { version: nextVersion }),
      completed_at: completedAt,
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const action = movingTree ? 'moved' : changes.status?.to === 'done' ? 'completed' : 'updated';
  // What a revert needs that the entry does not show (CONTRACT §16.3), kept, never answered: the
  // completion time a status change moves, and the assignees a move to another tree dropped.
  const kept: Changes = {};
  if (completedAt !== task.completed_at) kept.completed_at = { from: task.completed_at, to: completedAt };
  if (updated.assignee_ids !== task.assignee_ids)
    kept.assignee_ids = { from: JSON.parse(task.assignee_ids), to: JSON.parse(updated.assignee_ids) };
  await recordInTrees(w, access, target, {
    entity: 'task',
    entityId: id,
    action,
    changes,
    ...(Object.keys(kept).length > 0 ? { restore: kept } : {}),
  });
  return updated;
}

/** The MCP `complete_task` tool and any door that only marks work done. */
export function completeTask(deps: Deps, actor: Actor, id: string, precondition?: Precondition): Promise<Task> {
  return updateTask(deps, actor, id, { status: 'done' }, precondition);
}

/** @throws not_found, forbidden, precondition_failed */
export async function deleteTask(deps: Deps, actor: Actor, id: string, precondition?: Precondition): Promise<void> {
  requireWrite(actor);
  await write(deps, actor, (w) => removeTask(w, deps, id, precondition));
}

/**
 * deleteTask's work inside a write, for it and for a revert: the task goes with what hangs off it,
 * and its entry holds every field (CONTRACT §16.3). @throws not_found, forbidden, precondition_failed
 */
export async function removeTask(w: Write, deps: Deps, id: string, precondition?: Precondition): Promise<void> {
  const { trx } = w;
  // Locked like a move: the counter charged must be the tree's the task is in at commit.
  const { task, access } = await checkPrecondition(
    w,
    precondition,
    'tasks',
    await lockedTaskAccess(w, id),
    taskOf,
    () => lockedTaskAccess(w, id),
  );
  w.afterCommit(await collectDoomed(trx, deps, { taskIds: [id] }));
  await trx.deleteFrom('tasks').where('id', '=', id).execute();
  await chargeTree(trx, access, { tasks: -1 });
  await w.record(deletedTaskEntry(access.ownerId, task));
}
