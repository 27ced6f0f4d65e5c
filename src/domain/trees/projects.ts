import { collectDoomed } from '../cleanup.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { requireRead, requireWrite } from '../actor.js';
import {
  projectAccess,
  requireTreeWrite,
  treeAccess,
  visibleTrees,
  type ProjectRow,
  type TreeAccess,
} from '../access.js';
import { DEFAULT_COLOR, presentProject, type Project } from '../records.js';
import { parseUpdatedSince, type Page, type PageInput } from '../paging.js';
import { listPage } from '../list-page.js';
import { changedFields, diff } from './history.js';
import { chargeTree } from '../limits.js';
import { checkColor, checkPosition, positionAfter, DESCRIPTION_MAX, PROJECT_NAME_MAX } from '../fields.js';
import { checkLength, checkName } from '../validate.js';
import { DomainError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { deleteProjects, subtreeIds } from '../../store/project-tree.js';
import { checkNestingDepth } from './nesting.js';
import { carryToTree, readLocked, recordCarried, recordInTrees, writableTree } from './move.js';
import { write, type Write } from '../write.js';
import { checkPrecondition, type Precondition } from '../precondition.js';
import { nextVersion } from '../../store/task-version.js';
import { cascadeEntries } from './deleted-entries.js';

export interface ProjectInput {
  tree_id: string;
  parent_id?: string | null;
  name: string;
  description?: string;
  color?: string;
  position?: number;
}

export type ProjectPatch = Partial<ProjectInput>;

export interface ProjectFilters extends PageInput {
  updated_since?: string;
  tree_id?: string;
}

function checkProjectFields(input: ProjectPatch): void {
  if (input.name !== undefined) checkName('/name', input.name, PROJECT_NAME_MAX);
  if (input.description !== undefined) checkLength('/description', input.description, 0, DESCRIPTION_MAX);
  if (input.color !== undefined) checkColor('/color', input.color);
  if (input.position !== undefined) checkPosition('/position', input.position);
}

export async function listProjects(deps: Deps, actor: Actor, input: ProjectFilters): Promise<Page<Project>> {
  requireRead(actor);
  const since = parseUpdatedSince(input.updated_since);
  if (input.tree_id !== undefined) await treeAccess(deps.db, actor, input.tree_id);
  const { rows, next_cursor } = await listPage(
    deps,
    actor,
    {
      table: 'projects',
      endpoint: 'projects',
      visible: { trees: await visibleTrees(deps.db, actor) },
      equal: { tree_id: input.tree_id },
      since,
    },
    input,
  );
  return { items: rows.map(presentProject), next_cursor };
}

export async function getProject(deps: Deps, actor: Actor, id: string): Promise<Project> {
  requireRead(actor);
  return presentProject((await projectAccess(deps.db, actor, id)).project);
}

/** A parent must be a project of the same tree. @throws not_found (unknown or foreign), conflict (other tree) */
async function checkParent(trx: Trx, actor: Actor, parentId: string, treeId: string): Promise<ProjectRow> {
  const { project } = await projectAccess(trx, actor, parentId).catch(() => {
    throw notFound('parent project');
  });
  if (project.tree_id !== treeId)
    throw new DomainError('conflict', 'The parent project belongs to another tree.', [
      { path: '/parent_id', message: 'must be a project of the same tree' },
    ]);
  return project;
}

async function nextPosition(trx: Trx, treeId: string, parentId: string | null): Promise<number> {
  let query = trx
    .selectFrom('projects')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('tree_id', '=', treeId);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  const { max } = await query.executeTakeFirstOrThrow();
  return positionAfter(max);
}

/** @throws validation_failed, not_found, conflict, forbidden, plan_limit_reached */
export async function createProject(deps: Deps, actor: Actor, input: ProjectInput): Promise<Project> {
  requireWrite(actor);
  checkProjectFields(input);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, input.tree_id);
    requireTreeWrite(access);
    const parentId = input.parent_id ?? null;
    // The parent must still be in this tree at commit: a parallel move of it takes the same lock.
    if (parentId !== null) {
      await w.lockTrees([access.tree.id]);
      await checkParent(trx, actor, parentId, access.tree.id);
      await checkNestingDepth(trx, parentId, null);
    }
    await chargeTree(trx, access, { projects: 1 });
    const { now } = w;
    const row = await trx
      .insertInto('projects')
      .values({
        id: newId('prj'),
        owner_id: access.ownerId,
        tree_id: access.tree.id,
        parent_id: parentId,
        name: input.name,
        description: input.description ?? '',
        color: input.color ?? DEFAULT_COLOR,
        position: input.position ?? (await nextPosition(trx, access.tree.id, parentId)),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await w.record({
      ownerId: access.ownerId,
      treeId: row.tree_id,
      entity: 'project',
      entityId: row.id,
      action: 'created',
      changes: { name: { from: null, to: row.name } },
    });
    return presentProject(row);
  });
}

/** The project the actor may write. @throws not_found, forbidden */
async function writableProject(
  trx: Trx,
  actor: Actor,
  id: string,
): Promise<{ project: ProjectRow; access: TreeAccess }> {
  const found = await projectAccess(trx, actor, id);
  requireTreeWrite(found.access);
  return found;
}

/** A found project's row, for checkPrecondition. */
const projectOf = (found: { project: ProjectRow }) => found.project;

/**
 * Moves a project, and with it every descendant and their tasks when the tree changes. A change
 * of place (parent or tree) locks the trees involved and checks for cycles after the lock, so
 * two parallel moves cannot each pass the check and together close a loop. A patch that changes
 * nothing writes nothing and answers the project as it is.
 * @throws validation_failed, not_found, forbidden, precondition_failed, conflict (cycle, other tree), plan_limit_reached
 */
export async function updateProject(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: ProjectPatch,
  precondition?: Precondition,
): Promise<Project> {
  requireWrite(actor);
  checkProjectFields(patch);
  return write(deps, actor, async (w) => presentProject(await patchProject(w, id, patch, precondition)));
}

/**
 * updateProject's work inside a write, for it and for a revert (revert.ts): the same locks,
 * checks, carry, version and history entry. Answers the row as it is after the write.
 * @throws not_found, forbidden, precondition_failed, conflict (cycle, other tree), plan_limit_reached
 */
export async function patchProject(
  w: Write,
  id: string,
  patch: ProjectPatch,
  precondition?: Precondition,
): Promise<ProjectRow> {
  const { trx, actor } = w;
  const first = await writableProject(trx, actor, id);
  const destination = patch.tree_id === undefined ? null : await writableTree(trx, actor, patch.tree_id);
  const moves = patch.tree_id !== undefined || patch.parent_id !== undefined;
  const settled = async (found: typeof first) =>
    moves ? readLocked(w, found, () => projectAccess(trx, actor, id), destination) : found;
  const { project, access } = await checkPrecondition(
    w,
    precondition,
    'projects',
    await settled(first),
    projectOf,
    async () => settled(await writableProject(trx, actor, id)),
    'always',
  );
  const target = destination ?? access;
  const movingTree = target.tree.id !== project.tree_id;
  // A project moved to another tree lands at its top level unless a parent there is named.
  const parentId = patch.parent_id !== undefined ? patch.parent_id : movingTree ? null : project.parent_id;
  if (parentId !== null && (movingTree || parentId !== project.parent_id)) {
    await checkParent(trx, actor, parentId, target.tree.id);
  }
  const subtree = movingTree || parentId !== project.parent_id ? await subtreeIds(trx, id) : [id];
  if (parentId !== null && subtree.includes(parentId)) {
    throw new DomainError('conflict', 'A project cannot be moved under itself or one of its descendants.', [
      { path: '/parent_id', message: 'would make a cycle' },
    ]);
  }
  if (movingTree || parentId !== project.parent_id) await checkNestingDepth(trx, parentId, id);
  const { now } = w;
  // The assignees of the carried tasks before the move: those it drops are kept for a revert.
  const assigned = movingTree ? await assigneesOf(trx, subtree) : new Map<string, string>();
  if (movingTree) await carryToTree(w, access, target, { projectIds: subtree, taskIds: [] });
  const next = {
    tree_id: target.tree.id,
    parent_id: parentId,
    name: patch.name ?? project.name,
    description: patch.description ?? project.description,
    color: patch.color ?? project.color,
    position: patch.position ?? project.position,
  };
  const changes = diff(project as unknown as Record<string, unknown>, next);
  if (Object.keys(changes).length === 0) return project;
  const updated = await trx
    .updateTable('projects')
    .set({
      ...changedFields(next, changes),
      // A move's carry has raised the version already (the project is in the subtree it carries).
      ...(movingTree ? { owner_id: target.ownerId } : { version: nextVersion }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const action = movingTree || changes.parent_id !== undefined ? 'moved' : 'updated';
  await recordInTrees(w, access, target, { entity: 'project', entityId: id, action, changes });
  if (movingTree) await recordCarried(w, access, target, subtree, id, assigned);
  return updated;
}

/** The assignee lists (as stored) of the tasks of these projects. */
async function assigneesOf(trx: Trx, projectIds: string[]): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('tasks')
    .select(['id', 'assignee_ids'])
    .where('project_id', 'in', projectIds)
    .where('assignee_ids', '<>', '[]')
    .execute();
  return new Map(rows.map((row) => [row.id, row.assignee_ids]));
}

async function countTasksIn(trx: Trx, projectIds: string[]): Promise<number> {
  const { n } = await trx
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', 'in', projectIds)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** @throws not_found, forbidden, precondition_failed, conflict (not empty without cascade) */
export async function deleteProject(
  deps: Deps,
  actor: Actor,
  id: string,
  options: { cascade?: boolean; precondition?: Precondition } = {},
): Promise<void> {
  requireWrite(actor);
  await write(deps, actor, (w) => removeProject(w, deps, id, options));
}

/**
 * deleteProject's work inside a write, for it and for a revert: the subtree goes whole, each
 * removed record with its own entry holding every field (CONTRACT §16.3).
 * @throws not_found, forbidden, precondition_failed, conflict (not empty without cascade)
 */
export async function removeProject(
  w: Write,
  deps: Deps,
  id: string,
  options: { cascade?: boolean; precondition?: Precondition } = {},
): Promise<void> {
  const { trx, actor } = w;
  // Locked like a move: the subtree and its counts must not change under the delete.
  const locked = async () => {
    const first = await writableProject(trx, actor, id);
    return readLocked(w, first, () => projectAccess(trx, actor, id), null);
  };
  const { project, access } = await checkPrecondition(
    w,
    options.precondition,
    'projects',
    await locked(),
    projectOf,
    locked,
  );
  const subtree = await subtreeIds(trx, id);
  const taskCount = await countTasksIn(trx, subtree);
  if (options.cascade !== true && (subtree.length > 1 || taskCount > 0)) {
    throw new DomainError(
      'conflict',
      'The project has child projects or tasks; delete with ?cascade=true to remove them too.',
      [{ projects: subtree.length - 1, tasks: taskCount }],
    );
  }
  // Every removed record, read whole before it goes: each gets its own restorable entry (CONTRACT §16.3).
  const [projects, tasks] =
    subtree.length > 1 || taskCount > 0
      ? await Promise.all([
          trx.selectFrom('projects').selectAll().where('id', 'in', subtree).execute(),
          trx.selectFrom('tasks').selectAll().where('project_id', 'in', subtree).orderBy('seq').execute(),
        ])
      : [[project], []];
  w.afterCommit(await collectDoomed(trx, deps, { projectIds: subtree }));
  // The whole subtree in one statement (tasks cascade from their project, one level), never a
  // cascade down the parent chain, which nests one step per level in the database.
  await deleteProjects(trx, subtree);
  await chargeTree(trx, access, { projects: -subtree.length, tasks: -taskCount });
  await w.recordAll(cascadeEntries(access.ownerId, projects, tasks));
}
