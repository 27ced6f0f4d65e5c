import type { Selectable } from 'kysely';
import type { Actor } from './actor.js';
import type { Db, Trx } from '../store/db.js';
import type { ProjectTable, TaskTable, TreeTable } from '../store/schema.js';
import type { PlanName } from './plans.js';
import { DomainError, notFound } from './errors.js';
import { compiledOnce } from '../store/compiled.js';
import { isStorableId } from './fields.js';

export type TreeRow = Selectable<TreeTable>;
export type ProjectRow = Selectable<ProjectTable>;
export type TaskRow = Selectable<TaskTable>;

export type TreeRole = 'owner' | 'editor' | 'viewer';

/** What the actor may do in one tree, resolved on every request. */
export interface TreeAccess {
  tree: TreeRow;
  role: TreeRole;
  /** The tree owner: plan limits of a tree are its owner's. */
  ownerId: string;
  ownerPlan: PlanName;
}

type Reader = Db | Trx;

/**
 * The owners whose trees the actor can see. Today only the actor's own; team sharing adds the
 * owners of trees with an active membership here, and every query below follows.
 */
export function visibleOwnerIds(actor: Actor): string[] {
  return [actor.user.id];
}

function accessTo(actor: Actor, tree: TreeRow): TreeAccess | null {
  if (tree.owner_id === actor.user.id) return { tree, role: 'owner', ownerId: tree.owner_id, ownerPlan: actor.plan };
  return null;
}

// Point lookups on every request: compiled once (see compiledOnce), always scoped to the owner.
const treeOfOwner = compiledOnce((db, id: string, owner: string) => db.selectFrom('trees').selectAll().where('id', '=', id).where('owner_id', '=', owner));
const projectOfOwner = compiledOnce((db, id: string, owner: string) => db.selectFrom('projects').selectAll().where('id', '=', id).where('owner_id', '=', owner));
// A task arrives with its tree in one query: one round trip less on PostgreSQL for every task request.
const taskWithTreeOfOwner = compiledOnce((db, id: string, owner: string) =>
  db
    .selectFrom('tasks')
    .innerJoin('trees as tr', 'tr.id', 'tasks.tree_id')
    .selectAll('tasks')
    .select([
      'tr.seq as tr_seq', 'tr.id as tr_id', 'tr.owner_id as tr_owner_id', 'tr.name as tr_name', 'tr.style as tr_style',
      'tr.project_count as tr_project_count', 'tr.task_count as tr_task_count', 'tr.created_at as tr_created_at', 'tr.updated_at as tr_updated_at',
    ])
    .where('tasks.id', '=', id)
    .where('tasks.owner_id', '=', owner),
);

async function findVisible<T>(db: Reader, actor: Actor, id: string, lookup: (db: Reader, id: string, owner: string) => Promise<T[]>): Promise<T | undefined> {
  // An id holding NUL would be a PostgreSQL error, not an answer; no record can have it.
  if (!isStorableId(id)) return undefined;
  for (const owner of visibleOwnerIds(actor)) {
    const [row] = await lookup(db, id, owner);
    if (row !== undefined) return row;
  }
  return undefined;
}

/** @throws not_found for unknown, foreign or no longer accessible trees (never 403: no existence leaks). */
export async function treeAccess(db: Reader, actor: Actor, treeId: string): Promise<TreeAccess> {
  const tree = await findVisible(db, actor, treeId, treeOfOwner);
  const access = tree === undefined ? null : accessTo(actor, tree);
  if (access === null) throw notFound('tree');
  return access;
}

/** @throws not_found */
export async function projectAccess(db: Reader, actor: Actor, projectId: string): Promise<{ project: ProjectRow; access: TreeAccess }> {
  const project = await findVisible(db, actor, projectId, projectOfOwner);
  if (project === undefined) throw notFound('project');
  return { project, access: await treeAccess(db, actor, project.tree_id) };
}

/** @throws not_found */
export async function taskAccess(db: Reader, actor: Actor, taskId: string): Promise<{ task: TaskRow; access: TreeAccess }> {
  const row = await findVisible(db, actor, taskId, taskWithTreeOfOwner);
  if (row === undefined) throw notFound('task');
  // Spelled out rather than destructured with a rest: this runs on every task request.
  const task: TaskRow = {
    seq: row.seq, id: row.id, owner_id: row.owner_id, tree_id: row.tree_id, project_id: row.project_id, title: row.title, text: row.text,
    notes: row.notes, status: row.status, deadline: row.deadline, color: row.color, position: row.position, completed_at: row.completed_at,
    created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
  };
  const tree: TreeRow = {
    seq: row.tr_seq, id: row.tr_id, owner_id: row.tr_owner_id, name: row.tr_name, style: row.tr_style, project_count: row.tr_project_count,
    task_count: row.tr_task_count, created_at: row.tr_created_at, updated_at: row.tr_updated_at,
  };
  const access = accessTo(actor, tree);
  if (access === null) throw notFound('tree');
  return { task, access };
}

/** Writing into a tree needs the owner or an editor. @throws forbidden */
export function requireTreeWrite(access: TreeAccess): void {
  if (access.role === 'viewer') throw new DomainError('forbidden', 'Your role in this tree only allows reading.');
}

/** Renaming, deleting and sharing a tree are the owner's. @throws forbidden */
export function requireTreeOwner(access: TreeAccess): void {
  if (access.role !== 'owner') throw new DomainError('forbidden', 'Only the tree owner can do this.');
}
