import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { collectDoomed } from '../cleanup.js';
import { requireCapability, requireRead, requireWrite } from '../actor.js';
import { requireTreeOwner, roleIn, treeAccess, visibleTrees, type TreeAccess, type TreeRow } from '../access.js';
import {
  presentProject,
  presentTask,
  presentTree,
  treeStyles,
  type Project,
  type Task,
  type Tree,
  type TreeListItem,
} from '../records.js';
import { parseUpdatedSince, type Page, type PageInput } from '../paging.js';
import { listPage } from '../list-page.js';
import { diff } from './history.js';
import { checkTreeLimit } from '../limits.js';
import { checkEnum, checkName } from '../validate.js';
import { TREE_NAME_MAX } from '../fields.js';
import { newId, nowIso } from '../ids.js';
import { notFound } from '../errors.js';
import type { UserRow } from '../../store/rows.js';
import { write, type Write } from '../write.js';
import type { Trx } from '../../store/db.js';
import { requirePrecondition, type Precondition, type Versioned } from '../precondition.js';
import { nextVersion } from '../../store/task-version.js';
import { treesLastActivity } from '../../store/tree-activity.js';
import { treesTaskCounts } from '../../store/tree-task-counts.js';

export interface TreeInput {
  name: string;
  style?: string;
}

export interface TreePatch {
  name?: string;
  style?: string;
}

export interface TreeSnapshot {
  tree: Tree;
  projects: Project[];
  tasks: Task[];
}

/**
 * What a tree's snapshot ETag is made of (CONTRACT §16.2): the tree as the actor sees it, and the
 * id and version of each project and not-archived task in it, in the snapshot's order. Anything
 * that changes the snapshot changes one of them (a record's version rises with any change of its
 * fields; one added, removed or archived changes the lists). A TreeSnapshot is one.
 */
export interface TreeVersions {
  tree: Tree;
  projects: { id: string; version: number }[];
  tasks: { id: string; version: number }[];
}

/** What a tree write's precondition sees: the snapshot's versions, and the tree's own version (for 412's details). */
export type TreeCurrent = TreeVersions & Versioned;

function checkTreeFields(input: TreePatch): void {
  if (input.name !== undefined) checkName('/name', input.name, TREE_NAME_MAX);
  if (input.style !== undefined) checkEnum('/style', input.style, treeStyles);
}

/**
 * The actor's trees (and, with sharing, trees shared with them), in creation order, each with when
 * anything in it last changed (`last_activity_at`) and its open and done tasks (`task_counts`), each
 * read in one statement for the page.
 */
export async function listTrees(
  deps: Deps,
  actor: Actor,
  input: PageInput & { updated_since?: string },
): Promise<Page<TreeListItem>> {
  requireRead(actor);
  const since = parseUpdatedSince(input.updated_since);
  const visible = await visibleTrees(deps.db, actor);
  const { rows, next_cursor } = await listPage(
    deps,
    actor,
    { table: 'trees', endpoint: 'trees', visible: { trees: visible, treeColumn: 'id' }, since },
    input,
  );
  const ids = rows.map((row) => row.id);
  const [activity, counts] = await Promise.all([treesLastActivity(deps.db, ids), treesTaskCounts(deps.db, ids)]);
  return {
    items: rows.map((row) => ({
      ...presentTree(row, { role: roleIn(visible, row) }),
      // A tree deleted between the two reads keeps its own time.
      last_activity_at: activity.get(row.id) ?? row.updated_at,
      task_counts: counts.get(row.id)!,
    })),
    next_cursor,
  };
}

/** @throws insufficient_scope (also for a tree-scoped credential), plan_read_only, validation_failed, plan_limit_reached */
export async function createTree(deps: Deps, actor: Actor, input: TreeInput): Promise<Tree> {
  requireCapability(actor, 'treeCreate');
  checkTreeFields(input);
  const now = nowIso();
  const row = {
    id: newId('tre'),
    owner_id: actor.user.id,
    name: input.name,
    style: input.style ?? 'tidy-fan',
    created_at: now,
    updated_at: now,
  };
  const created = await write(deps, actor, async (w) => {
    const { trx } = w;
    await checkTreeLimit(trx, actor);
    const inserted = await trx.insertInto('trees').values(row).returningAll().executeTakeFirstOrThrow();
    await w.record({
      ownerId: row.owner_id,
      treeId: row.id,
      entity: 'tree',
      entityId: row.id,
      action: 'created',
      changes: { name: { from: null, to: row.name }, style: { from: null, to: row.style } },
    });
    return inserted;
  });
  return presentTree(created, { role: 'owner' });
}

/** The snapshot's projects, and its tasks that are not archived, in the snapshot's order: the GET and its ETag read the same rows. */
const snapshotProjects = (trx: Trx, access: TreeAccess) =>
  trx
    .selectFrom('projects')
    .where('tree_id', '=', access.tree.id)
    .where('owner_id', '=', access.ownerId)
    .orderBy('seq');
const snapshotTasks = (trx: Trx, access: TreeAccess) =>
  trx
    .selectFrom('tasks')
    .where('tree_id', '=', access.tree.id)
    .where('owner_id', '=', access.ownerId)
    .where('status', '!=', 'archived')
    .orderBy('seq');

/** The tree with its projects and its tasks that are not archived (the export has every task). @throws not_found */
export async function getTreeSnapshot(deps: Deps, actor: Actor, id: string): Promise<TreeSnapshot> {
  requireRead(actor);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, id);
    const [projects, tasks] = await Promise.all([
      snapshotProjects(trx, access).selectAll().execute(),
      snapshotTasks(trx, access).selectAll().execute(),
    ]);
    return {
      tree: presentTree(access.tree, access),
      projects: projects.map(presentProject),
      tasks: tasks.map(presentTask),
    };
  });
}

/** A tree's snapshot as its ETag sees it, read inside a write. */
async function snapshotVersions(trx: Trx, access: TreeAccess): Promise<TreeVersions> {
  const [projects, tasks] = await Promise.all([
    snapshotProjects(trx, access).select(['id', 'version']).execute(),
    snapshotTasks(trx, access).select(['id', 'version']).execute(),
  ]);
  return { tree: presentTree(access.tree, access), projects, tasks };
}

/**
 * The tree the actor owns, for a write of it. Its row locked until commit (a tree write and every
 * write that changes where rows sit queue there) and read again, for an update (which decides on
 * the tree as it is whether it changes anything) and for a precondition, which is checked on the
 * snapshot's versions as they are now.
 * @throws not_found, forbidden, precondition_failed
 */
async function ownedTree(
  w: Write,
  id: string,
  precondition: Precondition<TreeCurrent> | undefined,
  lock: 'always' | 'when-conditional',
): Promise<{ access: TreeAccess; versions?: TreeVersions }> {
  const read = async () => {
    const access = await treeAccess(w.trx, w.actor, id);
    requireTreeOwner(access);
    return access;
  };
  let access = await read();
  if (precondition === undefined && lock === 'when-conditional') return { access };
  if (await w.lockTrees([id])) access = await read();
  if (precondition === undefined) return { access };
  const versions = await snapshotVersions(w.trx, access);
  requirePrecondition(precondition, { ...versions, version: access.tree.version });
  return { access, versions };
}

/**
 * Renames a tree or changes its style. Answers the tree with its snapshot's versions after the
 * write (the REST answer's ETag is the snapshot's). A patch that changes nothing writes nothing.
 * @throws validation_failed, not_found, forbidden, precondition_failed
 */
export async function updateTree(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: TreePatch,
  precondition?: Precondition<TreeCurrent>,
): Promise<TreeVersions> {
  requireWrite(actor);
  checkTreeFields(patch);
  return write(deps, actor, (w) => patchTree(w, id, patch, precondition));
}

/** updateTree's work inside a write, for it and for a revert (revert.ts). @throws not_found, forbidden, precondition_failed */
export async function patchTree(
  w: Write,
  id: string,
  patch: TreePatch,
  precondition?: Precondition<TreeCurrent>,
): Promise<TreeVersions> {
  const { trx } = w;
  const { access, versions } = await ownedTree(w, id, precondition, 'always');
  const changes = diff(access.tree as unknown as Record<string, unknown>, { name: patch.name, style: patch.style });
  if (Object.keys(changes).length === 0) return versions ?? snapshotVersions(trx, access);
  const { now } = w;
  const updated: TreeRow = await trx
    .updateTable('trees')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.style !== undefined ? { style: patch.style } : {}),
      updated_at: now,
      version: nextVersion,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await w.record({ ownerId: access.ownerId, treeId: id, entity: 'tree', entityId: id, action: 'updated', changes });
  // The projects and tasks the precondition saw, this write left as they were.
  if (versions !== undefined) return { ...versions, tree: presentTree(updated, access) };
  return snapshotVersions(trx, { ...access, tree: updated });
}

/**
 * Removes the tree and everything in it (projects, tasks, history): their `tree_id` keys cascade,
 * each table one step from the tree, however deep its projects nest (no key cascades parent to
 * child: migration 0016). @throws not_found, forbidden, precondition_failed
 */
export async function deleteTree(
  deps: Deps,
  actor: Actor,
  id: string,
  precondition?: Precondition<TreeCurrent>,
): Promise<void> {
  requireWrite(actor);
  await write(deps, actor, async (w) => {
    const { trx } = w;
    const { access } = await ownedTree(w, id, precondition, 'when-conditional');
    w.afterCommit(await collectDoomed(trx, deps, { treeId: id }));
    await trx.deleteFrom('trees').where('id', '=', id).where('owner_id', '=', access.ownerId).execute();
  });
}

/** The owner of a tree, for operator tools that act on behalf of the owner. @throws not_found */
export async function treeOwner(deps: Deps, treeId: string): Promise<UserRow> {
  const owner = await deps.db
    .selectFrom('trees')
    .innerJoin('users', 'users.id', 'trees.owner_id')
    .selectAll('users')
    .where('trees.id', '=', treeId)
    .executeTakeFirst();
  if (owner === undefined) throw notFound('tree');
  return owner;
}
