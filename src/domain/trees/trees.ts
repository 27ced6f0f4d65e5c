import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { collectDoomed } from '../cleanup.js';
import { requireRead, requireWrite } from '../actor.js';
import { requireTreeOwner, roleIn, treeAccess, visibleTrees, type TreeRow } from '../access.js';
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
import { write } from '../write.js';
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

/** @throws validation_failed, plan_limit_reached */
export async function createTree(deps: Deps, actor: Actor, input: TreeInput): Promise<Tree> {
  requireWrite(actor);
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

/** The tree with its projects and its tasks that are not archived (the export has every task). @throws not_found */
export async function getTreeSnapshot(deps: Deps, actor: Actor, id: string): Promise<TreeSnapshot> {
  requireRead(actor);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, id);
    const [projects, tasks] = await Promise.all([
      trx
        .selectFrom('projects')
        .selectAll()
        .where('tree_id', '=', id)
        .where('owner_id', '=', access.ownerId)
        .orderBy('seq')
        .execute(),
      trx
        .selectFrom('tasks')
        .selectAll()
        .where('tree_id', '=', id)
        .where('owner_id', '=', access.ownerId)
        .where('status', '!=', 'archived')
        .orderBy('seq')
        .execute(),
    ]);
    return {
      tree: presentTree(access.tree, access),
      projects: projects.map(presentProject),
      tasks: tasks.map(presentTask),
    };
  });
}

/** @throws not_found, forbidden, validation_failed */
export async function updateTree(deps: Deps, actor: Actor, id: string, patch: TreePatch): Promise<Tree> {
  requireWrite(actor);
  checkTreeFields(patch);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, id);
    requireTreeOwner(access);
    const changes = diff(access.tree as unknown as Record<string, unknown>, { name: patch.name, style: patch.style });
    if (Object.keys(changes).length === 0) return presentTree(access.tree, access);
    const { now } = w;
    const updated: TreeRow = await trx
      .updateTable('trees')
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.style !== undefined ? { style: patch.style } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await w.record({ ownerId: access.ownerId, treeId: id, entity: 'tree', entityId: id, action: 'updated', changes });
    return presentTree(updated, access);
  });
}

/**
 * Removes the tree and everything in it (projects, tasks, history): their `tree_id` keys cascade,
 * each table one step from the tree, however deep its projects nest (no key cascades parent to
 * child: migration 0016). @throws not_found, forbidden
 */
export async function deleteTree(deps: Deps, actor: Actor, id: string): Promise<void> {
  requireWrite(actor);
  await write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, id);
    requireTreeOwner(access);
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
