import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import type { HistoryRow, ProjectRow, TaskRow } from '../../store/rows.js';
import { requireWrite } from '../actor.js';
import { requireTreeOwner, requireTreeWrite, treeAccess, usersWhoSee, type TreeAccess } from '../access.js';
import { writtenChangeId } from '../change.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { isStorableId } from '../fields.js';
import { chargeTree } from '../limits.js';
import { write, type Write } from '../write.js';
import {
  credentialChangesInTree,
  entriesAfter,
  entriesOfChanges,
  lockRows,
  revertsOf,
  treeOfChange,
  type LaterEntry,
} from '../../store/changes.js';
import { historyWindowStart, type HistoryEntryInput } from './history.js';
import { planRevert, type RecordPlan, type Skipped } from './revert-plan.js';
import { patchTask, type TaskPatch } from './tasks.js';
import { deletedTaskEntry } from './deleted-entries.js';
import { collectDoomed } from '../cleanup.js';
import { patchProject, removeProject, type ProjectPatch } from './projects.js';
import { patchTree } from './trees.js';
import { assignTask } from './assignees.js';

/** What a revert answers (CONTRACT §16.3). */
export interface RevertResult {
  change_id: string | null;
  reverted: number;
  skipped: Skipped[];
}

export interface TreeRevertResult extends RevertResult {
  changes: string[];
}

interface Conflict {
  entity: string;
  entity_id: string;
  change_id: string;
}

const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Whether each change is reverted: a revert of it exists that was not itself reverted (a redo
 * makes a change revertible again, with its records then touched later by the revert and the redo).
 */
async function revertedChanges(trx: Trx, changeIds: readonly string[]): Promise<Set<string>> {
  const reverts = await revertsOf(trx, changeIds);
  if (reverts.length === 0) return new Set();
  const undone = new Set((await revertsOf(trx, [...new Set(reverts.map((r) => r.change_id))])).map((r) => r.reverts));
  return new Set(reverts.filter((r) => !undone.has(r.change_id)).map((r) => r.reverts));
}

/**
 * The actor's write access to every tree the entries are in, inside the history window of each:
 * a tree it cannot see, out of its scope, or entries purged read as not found; a viewer is
 * refused; a change of a tree's own fields needs its owner.
 * @throws not_found, forbidden
 */
async function writableTrees(trx: Trx, actor: Actor, entries: readonly HistoryRow[]): Promise<Map<string, TreeAccess>> {
  const trees = new Map<string, TreeAccess>();
  for (const treeId of new Set(entries.map((e) => e.tree_id))) trees.set(treeId, await treeAccess(trx, actor, treeId));
  for (const entry of entries) {
    if (entry.at < historyWindowStart(trees.get(entry.tree_id)!.ownerPlan)) throw notFound('change');
  }
  for (const access of trees.values()) requireTreeWrite(access);
  for (const entry of entries) if (entry.entity === 'tree') requireTreeOwner(trees.get(entry.tree_id)!);
  return trees;
}

/** The records as they are now, by id. */
async function currentRows(trx: Trx, plans: readonly RecordPlan[]) {
  const ids = (entity: string) => plans.filter((p) => p.entity === entity).map((p) => p.id);
  const [taskIds, projectIds] = [ids('task'), ids('project')];
  const tasks = new Map<string, TaskRow>();
  const projects = new Map<string, ProjectRow>();
  for (let start = 0; start < taskIds.length; start += 500) {
    const rows = await trx
      .selectFrom('tasks')
      .selectAll()
      .where('id', 'in', taskIds.slice(start, start + 500))
      .execute();
    for (const row of rows) tasks.set(row.id, row);
  }
  for (let start = 0; start < projectIds.length; start += 500) {
    const rows = await trx
      .selectFrom('projects')
      .selectAll()
      .where('id', 'in', projectIds.slice(start, start + 500))
      .execute();
    for (const row of rows) projects.set(row.id, row);
  }
  return { tasks, projects };
}

/** Whether a project exists now (read when a plan did not bring it along). */
async function projectExists(trx: Trx, id: string, known: Map<string, ProjectRow>): Promise<boolean> {
  if (known.has(id)) return true;
  const row = await trx.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * The records that hang on records the revert would remove and that the changes did not touch
 * (a task added to a project the change created, a comment on a task it created).
 */
async function hanging(
  trx: Trx,
  removed: { tasks: string[]; projects: string[] },
  touched: ReadonlySet<string>,
): Promise<{ entity: string; entity_id: string; parent: string }[]> {
  const out: { entity: string; entity_id: string; parent: string }[] = [];
  const add = (entity: string, rows: { id: string; parent: string | null }[]) => {
    for (const row of rows) if (!touched.has(row.id)) out.push({ entity, entity_id: row.id, parent: row.parent! });
  };
  if (removed.projects.length > 0) {
    add(
      'project',
      await trx
        .selectFrom('projects')
        .select(['id', 'parent_id as parent'])
        .where('parent_id', 'in', removed.projects)
        .execute(),
    );
    add(
      'task',
      await trx
        .selectFrom('tasks')
        .select(['id', 'project_id as parent'])
        .where('project_id', 'in', removed.projects)
        .execute(),
    );
  }
  if (removed.tasks.length > 0) {
    add(
      'comment',
      await trx
        .selectFrom('comments')
        .select(['id', 'task_id as parent'])
        .where('task_id', 'in', removed.tasks)
        .execute(),
    );
    add(
      'attachment',
      await trx
        .selectFrom('attachments')
        .select(['id', 'task_id as parent'])
        .where('task_id', 'in', removed.tasks)
        .execute(),
    );
  }
  return out;
}

/** The change of the newest later entry that names a record, if any. */
function laterChangeOf(later: readonly LaterEntry[], entityId: string): string | undefined {
  for (let i = later.length - 1; i >= 0; i--) if (later[i]!.entity_id === entityId) return later[i]!.change_id;
  return undefined;
}

/**
 * Undoes the entries of `changeIds` (the changes `own` holds are never a conflict of each other)
 * inside the write, as CONTRACT §16.3 says: conflicts first (nothing changes on 409), then
 * restores (projects before their tasks), fields set back, and records the changes created
 * removed; every entry it writes names the change it undid. Answers how many entries it undid
 * and what it skipped.
 * @throws not_found, forbidden, revert_conflict, conflict, plan_limit_reached
 */
async function undo(
  w: Write,
  deps: Deps,
  entries: readonly HistoryRow[],
  own: ReadonlySet<string>,
  force: boolean,
): Promise<{ reverted: number; skipped: Skipped[]; undone: Set<string> }> {
  const { trx, actor } = w;
  const trees = await writableTrees(trx, actor, entries);
  const { records, skipped } = planRevert(entries);
  const plans = records.filter((p) => p.kind !== 'none');
  // Serialize with every writer of these trees and records; what is read after this is current.
  const treeIds = new Set(trees.keys());
  for (const p of plans) if (typeof p.fields.tree_id === 'string') treeIds.add(p.fields.tree_id);
  await w.lockTrees(treeIds);
  await lockRows(
    trx,
    'projects',
    plans.filter((p) => p.entity === 'project').map((p) => p.id),
  );
  await lockRows(
    trx,
    'tasks',
    plans.filter((p) => p.entity === 'task').map((p) => p.id),
  );
  const now = await currentRows(trx, plans);
  const exists = (p: RecordPlan) =>
    p.entity === 'task' ? now.tasks.has(p.id) : p.entity === 'project' ? now.projects.has(p.id) : true;

  // Later changes of anyone else that name a record the revert touches.
  const firstSeq = entries.reduce((min, e) => Math.min(min, Number(e.seq)), Number.POSITIVE_INFINITY);
  const later = (await entriesAfter(trx, [...trees.keys()], firstSeq)).filter((e) => !own.has(e.change_id));
  const conflicts = new Map<string, Conflict>();
  const conflict = (entity: string, entityId: string, changeId: string | undefined) => {
    if (changeId === undefined) return;
    conflicts.set(`${entity}\u0000${entityId}\u0000${changeId}`, { entity, entity_id: entityId, change_id: changeId });
  };
  const bySeq = new Map(plans.map((p) => [p.id, p.firstSeq]));
  for (const e of later) {
    const seq = bySeq.get(e.entity_id);
    if (seq !== undefined && e.seq > seq) conflict(e.entity, e.entity_id, e.change_id);
  }
  // Records later hung on a record the revert would remove keep it (force) or stop the revert.
  const touched = new Set(plans.map((p) => p.id));
  const removing = plans.filter((p) => p.kind === 'remove' && exists(p));
  const hangers = await hanging(
    trx,
    {
      tasks: removing.filter((p) => p.entity === 'task').map((p) => p.id),
      projects: removing.filter((p) => p.entity === 'project').map((p) => p.id),
    },
    touched,
  );
  const kept = new Set<string>();
  for (const h of hangers) {
    conflict(h.entity, h.entity_id, laterChangeOf(later, h.entity_id));
    kept.add(h.parent);
  }
  // A kept project keeps the projects above it that the revert would remove.
  const parentOf = (id: string) => now.projects.get(id)?.parent_id ?? now.tasks.get(id)?.project_id ?? null;
  for (const id of [...kept]) {
    for (let at = parentOf(id); at !== null && !kept.has(at); at = parentOf(at)) kept.add(at);
  }
  // A place to put back that is gone (its project deleted later by someone else).
  const restoring = new Set(plans.filter((p) => p.kind === 'restore').map((p) => p.id));
  const gone = new Set<string>();
  for (const p of plans) {
    if (p.kind !== 'restore' && p.kind !== 'fields') continue;
    const place = p.entity === 'task' ? p.fields.project_id : p.entity === 'project' ? p.fields.parent_id : null;
    if (typeof place !== 'string' || restoring.has(place) || (await projectExists(trx, place, now.projects))) continue;
    gone.add(place);
    conflict('project', place, laterChangeOf(later, place));
  }
  if (conflicts.size > 0 && !force) {
    throw new DomainError(
      'revert_conflict',
      'A record this change touched was changed again later; nothing was undone. Revert with force=true to put back only the fields this change wrote.',
      [...conflicts.values()],
    );
  }

  // The entries this revert writes name the change they undo.
  let reverts = '';
  const rw: Write = {
    ...w,
    record: (entry) => w.record({ ...entry, reverts }),
    recordAll: (list) => w.recordAll(list.map((entry) => ({ ...entry, reverts }))),
  };
  const undone = new Set<string>();
  let reverted = 0;
  const done = (p: RecordPlan) => {
    reverted += p.entries;
    undone.add(p.changeId);
  };
  for (const p of records) if (p.kind === 'none') done(p);

  // The trees records go back to or leave, as the actor may write them (the change's own, checked).
  const accessOf = async (treeId: string): Promise<TreeAccess> => {
    let access = trees.get(treeId);
    if (access === undefined) {
      access = await treeAccess(trx, actor, treeId);
      requireTreeWrite(access);
      trees.set(treeId, access);
    }
    return access;
  };

  // 1. Restores: the plan's limits first, then projects (parents first), then tasks.
  const restores = plans.filter((p) => p.kind === 'restore' && !exists(p));
  for (const p of plans) if (p.kind === 'restore' && exists(p)) done(p);
  await chargeRestores(restores, accessOf, trx);
  const projectRestores = restores.filter((p) => p.entity === 'project');
  const restored = new Set<string>();
  while (projectRestores.length > 0) {
    const i = Math.max(
      0,
      projectRestores.findIndex((p) => {
        const parent = p.fields.parent_id;
        return typeof parent !== 'string' || !projectRestores.some((q) => q.id === parent);
      }),
    );
    const [p] = projectRestores.splice(i, 1);
    reverts = p!.changeId;
    await restoreProject(rw, p!, gone, accessOf);
    restored.add(p!.id);
    done(p!);
  }
  const taskRestores = restores.filter((r) => r.entity === 'task');
  await restoreTasks(w, taskRestores, gone, accessOf);
  for (const p of taskRestores) done(p);

  // 2. Fields set back: projects, tasks, then trees.
  for (const entity of ['project', 'task', 'tree'] as const) {
    for (const p of plans.filter((q) => q.kind === 'fields' && q.entity === entity)) {
      if (!exists(p)) {
        // Gone later (that was a conflict): nothing of it to put back.
        continue;
      }
      reverts = p.changeId;
      const versionBefore = (p.entity === 'task' ? now.tasks.get(p.id) : now.projects.get(p.id))?.version;
      await setBack(rw, p, gone, versionBefore);
      done(p);
    }
  }

  // 3. What the changes created goes: tasks, then projects from the newest (children before parents).
  const removals = plans.filter((p) => p.kind === 'remove').sort((a, b) => b.firstSeq - a.firstSeq);
  const removable: RecordPlan[] = [];
  for (const p of removals) {
    if (kept.has(p.id)) skipped.push({ entity: p.entity, entity_id: p.id, action: 'created' });
    else if (!exists(p)) done(p);
    else removable.push(p);
  }
  const taskRemovals = removable.filter((p) => p.entity === 'task');
  await removeTasks(w, deps, taskRemovals, accessOf);
  for (const p of taskRemovals) done(p);
  for (const p of removable.filter((q) => q.entity === 'project')) {
    reverts = p.changeId;
    await removeProject(rw, deps, p.id);
    done(p);
  }
  return { reverted, skipped, undone };
}

/** Plan limits apply to what a revert restores (CONTRACT §16.3). @throws plan_limit_reached */
async function chargeRestores(
  restores: readonly RecordPlan[],
  accessOf: (treeId: string) => Promise<TreeAccess>,
  trx: Trx,
): Promise<void> {
  const byTree = new Map<string, { projects: number; tasks: number }>();
  for (const p of restores) {
    const treeId = String(p.fields.tree_id);
    const counts = byTree.get(treeId) ?? { projects: 0, tasks: 0 };
    if (p.entity === 'project') counts.projects++;
    else counts.tasks++;
    byTree.set(treeId, counts);
  }
  for (const [treeId, delta] of byTree) await chargeTree(trx, await accessOf(treeId), delta);
}

const str = (value: unknown) => String(value);
const strOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));
const num = (value: unknown) => Number(value);

/** A deleted project back with its id and fields, its version one past the one it had (CONTRACT §16.2). */
async function restoreProject(
  w: Write,
  p: RecordPlan,
  gone: ReadonlySet<string>,
  accessOf: (treeId: string) => Promise<TreeAccess>,
): Promise<void> {
  const f = p.fields;
  const access = await accessOf(str(f.tree_id));
  const parent = strOrNull(f.parent_id);
  const row = {
    id: p.id,
    owner_id: access.ownerId,
    tree_id: access.tree.id,
    parent_id: parent !== null && gone.has(parent) ? null : parent,
    name: str(f.name),
    description: str(f.description ?? ''),
    color: str(f.color),
    position: num(f.position),
    created_at: str(f.created_at),
    updated_at: w.now,
    version: num(f.version ?? 0) + 1,
  };
  await w.trx.insertInto('projects').values(row).execute();
  await w.record(createdEntry(access, 'project', p.id, { name: { from: null, to: row.name } }));
}

const CHUNK = 200;

/**
 * Deleted tasks back with their ids and fields, their versions one past the ones they had, and
 * the assignees who may still see their trees: a multi-row insert per tree (a revert of a
 * 50-task change is one statement, not 50), each with its `created` entry.
 */
async function restoreTasks(
  w: Write,
  plans: readonly RecordPlan[],
  gone: ReadonlySet<string>,
  accessOf: (treeId: string) => Promise<TreeAccess>,
): Promise<void> {
  const byTree = new Map<string, RecordPlan[]>();
  for (const p of plans) {
    const treeId = str(p.fields.tree_id);
    byTree.set(treeId, [...(byTree.get(treeId) ?? []), p]);
  }
  for (const [treeId, list] of byTree) {
    const access = await accessOf(treeId);
    const assigneesOf = (p: RecordPlan) =>
      Array.isArray(p.fields.assignee_ids) ? (p.fields.assignee_ids as unknown[]).map(String) : [];
    const wanted = [...new Set(list.flatMap(assigneesOf))];
    const allowed = wanted.length === 0 ? new Set<string>() : await usersWhoSee(w.trx, access, wanted);
    const rows = list.map((p) => {
      const f = p.fields;
      const project = strOrNull(f.project_id);
      return {
        id: p.id,
        owner_id: access.ownerId,
        tree_id: access.tree.id,
        project_id: project !== null && gone.has(project) ? null : project,
        title: str(f.title),
        text: str(f.text ?? ''),
        notes: str(f.notes ?? ''),
        status: str(f.status),
        deadline: strOrNull(f.deadline),
        color: str(f.color),
        position: num(f.position),
        completed_at: strOrNull(f.completed_at),
        created_by: str(f.created_by),
        assignee_ids: JSON.stringify(
          assigneesOf(p)
            .filter((id) => allowed.has(id))
            .sort(),
        ),
        created_at: str(f.created_at),
        updated_at: w.now,
        version: num(f.version ?? 0) + 1,
      };
    });
    for (let start = 0; start < rows.length; start += CHUNK) {
      await w.trx
        .insertInto('tasks')
        .values(rows.slice(start, start + CHUNK))
        .execute();
    }
    const assigned = rows.flatMap((row) =>
      (JSON.parse(row.assignee_ids) as string[]).map((user_id) => ({
        task_id: row.id,
        user_id,
        owner_id: access.ownerId,
        tree_id: access.tree.id,
        created_at: w.now,
      })),
    );
    for (let start = 0; start < assigned.length; start += CHUNK) {
      await w.trx
        .insertInto('task_assignees')
        .values(assigned.slice(start, start + CHUNK))
        .execute();
    }
    await w.recordAll(
      rows.map((row, i) => ({
        ...createdEntry(access, 'task', row.id, {
          title: { from: null, to: row.title },
          status: { from: null, to: row.status },
        }),
        reverts: list[i]!.changeId,
      })),
    );
  }
}

/**
 * Tasks the changes created, removed as deleteTask removes one (what hangs off them goes, each
 * entry holds every field), a tree at a time: one delete statement, not one per task.
 */
async function removeTasks(
  w: Write,
  deps: Deps,
  plans: readonly RecordPlan[],
  accessOf: (treeId: string) => Promise<TreeAccess>,
): Promise<void> {
  if (plans.length === 0) return;
  const changeOf = new Map(plans.map((p) => [p.id, p.changeId]));
  // Read again: setting fields back (a project carried back to its tree) may have moved them.
  const rows: TaskRow[] = [];
  const ids = plans.map((p) => p.id);
  for (let start = 0; start < ids.length; start += 500) {
    rows.push(
      ...(await w.trx
        .selectFrom('tasks')
        .selectAll()
        .where('id', 'in', ids.slice(start, start + 500))
        .orderBy('seq')
        .execute()),
    );
  }
  const byTree = new Map<string, TaskRow[]>();
  for (const row of rows) byTree.set(row.tree_id, [...(byTree.get(row.tree_id) ?? []), row]);
  await w.lockTrees(byTree.keys());
  for (const [treeId, list] of byTree) {
    const access = await accessOf(treeId);
    const taskIds = list.map((row) => row.id);
    w.afterCommit(await collectDoomed(w.trx, deps, { taskIds }));
    for (let start = 0; start < taskIds.length; start += 500) {
      await w.trx
        .deleteFrom('tasks')
        .where('id', 'in', taskIds.slice(start, start + 500))
        .execute();
    }
    await chargeTree(w.trx, access, { tasks: -list.length });
    await w.recordAll(
      list.map((row) => ({ ...deletedTaskEntry(access.ownerId, row), reverts: changeOf.get(row.id)! })),
    );
  }
}

function createdEntry(
  access: TreeAccess,
  entity: 'task' | 'project',
  entityId: string,
  changes: HistoryEntryInput['changes'],
): HistoryEntryInput {
  return { ownerId: access.ownerId, treeId: access.tree.id, entity, entityId, action: 'created', changes };
}

const TASK_FIELDS = ['tree_id', 'project_id', 'title', 'text', 'notes', 'status', 'color', 'position'] as const;
const PROJECT_FIELDS = ['tree_id', 'parent_id', 'name', 'description', 'color', 'position'] as const;

/** The fields of a record set back through the same work its door does (patchTask, patchProject, patchTree). */
async function setBack(
  w: Write,
  p: RecordPlan,
  gone: ReadonlySet<string>,
  versionBefore: number | undefined,
): Promise<void> {
  const f = p.fields;
  const pick = (fields: readonly string[]) => Object.fromEntries(fields.filter((k) => k in f).map((k) => [k, f[k]]));
  if (p.entity === 'tree') {
    const patch = pick(['name', 'style']) as { name?: string; style?: string };
    if (Object.keys(patch).length > 0) await patchTree(w, p.id, patch);
    return;
  }
  if (p.entity === 'project') {
    const patch = pick(PROJECT_FIELDS) as ProjectPatch;
    if (typeof patch.parent_id === 'string' && gone.has(patch.parent_id)) patch.parent_id = null;
    if (Object.keys(patch).length > 0) await patchProject(w, p.id, patch);
    return;
  }
  const patch = pick(TASK_FIELDS) as TaskPatch;
  if (typeof patch.project_id === 'string' && gone.has(patch.project_id)) patch.project_id = null;
  const deadline = 'deadline' in f ? strOrNull(f.deadline) : undefined;
  const completedAt = 'completed_at' in f ? { completedAt: strOrNull(f.completed_at) } : {};
  // One step of version per record a revert alters (CONTRACT §16.2), however many writes it takes
  // (a project carried back raised its tasks' already).
  let raised = false;
  if (Object.keys(patch).length > 0 || deadline !== undefined || 'completed_at' in f) {
    const after = await patchTask(w, p.id, patch, deadline, undefined, completedAt);
    raised = after.version !== versionBefore;
  } else {
    const current = await w.trx.selectFrom('tasks').select('version').where('id', '=', p.id).executeTakeFirst();
    raised = current !== undefined && current.version !== versionBefore;
  }
  if (Array.isArray(f.assignee_ids)) {
    await assignTask(w, p.id, (f.assignee_ids as unknown[]).map(String), undefined, true, !raised);
  }
}

/**
 * `POST /changes/{id}/revert`: undoes one change in one transaction (CONTRACT §16.3).
 * @throws insufficient_scope, plan_read_only, not_found, forbidden, conflict (already reverted),
 * revert_conflict, plan_limit_reached
 */
export async function revertChange(
  deps: Deps,
  actor: Actor,
  changeId: string,
  options: { force?: boolean } = {},
): Promise<RevertResult> {
  requireWrite(actor);
  if (!isStorableId(changeId)) throw notFound('change');
  const result = await write(deps, actor, async (w) => {
    const entries = await entriesOfChanges(w.trx, [changeId]);
    if (entries.length === 0) throw notFound('change');
    // Existence and role first (writableTrees, again in undo: cheap), then "already reverted".
    await writableTrees(w.trx, actor, entries);
    if ((await revertedChanges(w.trx, [changeId])).has(changeId))
      throw new DomainError('conflict', 'This change was reverted already.');
    const { reverted, skipped } = await undo(w, deps, entries, new Set([changeId]), options.force === true);
    return { reverted, skipped };
  });
  return { change_id: writtenChangeId(actor.change), ...result };
}

/**
 * `POST /trees/{id}/revert`: undoes every change one credential made in the tree at or after
 * `since`, newest first, in one transaction, with the conflict rule of one change (a later change
 * by anyone else on a touched record) (CONTRACT §16.3).
 * @throws validation_failed, insufficient_scope, plan_read_only, not_found, forbidden,
 * revert_conflict, plan_limit_reached
 */
export async function revertTreeChanges(
  deps: Deps,
  actor: Actor,
  treeId: string,
  input: { credential_id: string; since: string },
  options: { force?: boolean } = {},
): Promise<TreeRevertResult> {
  requireWrite(actor);
  const time = Date.parse(input.since);
  if (!ZONED.test(input.since) || Number.isNaN(time))
    throw invalid('/since', 'must be an ISO 8601 date-time with a time zone, such as 2026-11-22T10:00:00Z');
  const since = new Date(time).toISOString();
  const result = await write(deps, actor, async (w) => {
    const access = await treeAccess(w.trx, actor, treeId);
    requireTreeWrite(access);
    const windowStart = historyWindowStart(access.ownerPlan);
    const candidates = await credentialChangesInTree(
      w.trx,
      { id: treeId, ownerId: access.ownerId },
      input.credential_id,
      since > windowStart ? since : windowStart,
    );
    const nothing = { reverted: 0, skipped: [] as Skipped[], changes: [] as string[] };
    if (candidates.length === 0) return nothing;
    const all = await entriesOfChanges(w.trx, candidates);
    const inSet = new Set(candidates);
    const reverted = await revertedChanges(w.trx, candidates);
    // A revert among them of another of them cancels out with it: neither is undone.
    const cancelling = new Set(all.filter((e) => e.reverts !== null && inSet.has(e.reverts)).map((e) => e.change_id));
    const active = candidates.filter((c) => !reverted.has(c) && !cancelling.has(c));
    const activeSet = new Set(active);
    const entries = all.filter((e) => activeSet.has(e.change_id));
    if (entries.length === 0) return nothing;
    const outcome = await undo(w, deps, entries, inSet, options.force === true);
    const changes = active.filter((c) => outcome.undone.has(c)).reverse();
    return { reverted: outcome.reverted, skipped: outcome.skipped, changes };
  });
  return { change_id: writtenChangeId(actor.change), ...result };
}

/** A tree of a change, for operator tools that act as its owner. @throws not_found */
export async function treeOfChangeOrThrow(deps: Deps, changeId: string): Promise<string> {
  const treeId = isStorableId(changeId) ? await treeOfChange(deps.db, changeId) : undefined;
  if (treeId === undefined) throw notFound('change');
  return treeId;
}
