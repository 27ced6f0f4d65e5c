import type { Db, Trx } from './types.js';
import type { GrantColumns, ProjectRow, TaskRow, TreeRow } from './rows.js';
import { compiledOnce } from './compiled.js';

// The point lookups behind every request's access (domain/access.ts decides what they grant).
// Compiled once (see compiledOnce) and always scoped to the owner or the actor; rows are split
// here, field by field, because this runs on every task request.

type Reader = Db | Trx;

const treeOfOwner = compiledOnce((db, id: string, owner: string) =>
  db.selectFrom('trees').selectAll().where('id', '=', id).where('owner_id', '=', owner),
);
const projectOfOwner = compiledOnce((db, id: string, owner: string) =>
  db.selectFrom('projects').selectAll().where('id', '=', id).where('owner_id', '=', owner),
);
// A task arrives with its tree in one query: one round trip less on PostgreSQL for every task request.
// The same query resolves a task of a tree shared with the actor: the membership and the owner's
// plan join only when the actor is not the owner, so an owned task costs what it did and a shared
// one no more (issue 15: a shared read within 10 % of an owned one).
const taskWithTreeFor = compiledOnce((db, id: string, actor: string) =>
  db
    .selectFrom('tasks')
    .innerJoin('trees as tr', 'tr.id', 'tasks.tree_id')
    .leftJoin('members as m', (join) =>
      join.onRef('m.tree_id', '=', 'tasks.tree_id').on('m.user_id', '=', actor).on('tasks.owner_id', '<>', actor),
    )
    .leftJoin('users as o', (join) => join.onRef('o.id', '=', 'tr.owner_id').on('m.id', 'is not', null))
    .selectAll('tasks')
    .select([
      'tr.seq as tr_seq',
      'tr.id as tr_id',
      'tr.owner_id as tr_owner_id',
      'tr.name as tr_name',
      'tr.style as tr_style',
      'tr.project_count as tr_project_count',
      'tr.task_count as tr_task_count',
      'tr.created_at as tr_created_at',
      'tr.updated_at as tr_updated_at',
      'tr.version as tr_version',
      'm.role as m_role',
      'm.status as m_status',
      'm.expires_at as m_expires_at',
      'o.plan as o_plan',
      'o.plan_expires_at as o_plan_expires_at',
    ])
    .where('tasks.id', '=', id)
    .where((eb) => eb.or([eb('tasks.owner_id', '=', actor), eb('m.user_id', '=', actor)])),
);
// A task alone, for reads. A task's owner_id is its tree's owner (creates and moves keep it so),
// so the tree's row is not needed: a task read is a third cheaper without it on SQLite.
function readableTaskQuery(db: Reader, id: string, actor: string) {
  return db
    .selectFrom('tasks')
    .leftJoin('members as m', (join) =>
      join.onRef('m.tree_id', '=', 'tasks.tree_id').on('m.user_id', '=', actor).on('tasks.owner_id', '<>', actor),
    )
    .leftJoin('users as o', (join) => join.onRef('o.id', '=', 'tasks.owner_id').on('m.id', 'is not', null))
    .select([
      'm.role as m_role',
      'm.status as m_status',
      'm.expires_at as m_expires_at',
      'o.plan as o_plan',
      'o.plan_expires_at as o_plan_expires_at',
    ])
    .where('tasks.id', '=', id)
    .where((eb) => eb.or([eb('tasks.owner_id', '=', actor), eb('m.user_id', '=', actor)]));
}
const readableTaskFor = compiledOnce((db, id: string, actor: string) =>
  readableTaskQuery(db, id, actor).selectAll('tasks'),
);
// The same rows with only what a conditional read compares: a 304 needs neither the task's text nor its body built.
const readableTaskVersionFor = compiledOnce((db, id: string, actor: string) =>
  readableTaskQuery(db, id, actor).select(['tasks.owner_id', 'tasks.tree_id', 'tasks.version']),
);
// A tree someone shared with the user, with what decides the access: the membership and the owner's plan.
const sharedTree = compiledOnce((db, id: string, user: string) =>
  db
    .selectFrom('trees')
    .innerJoin('members as m', 'm.tree_id', 'trees.id')
    .innerJoin('users as o', 'o.id', 'trees.owner_id')
    .select([
      'trees.seq',
      'trees.id',
      'trees.owner_id',
      'trees.name',
      'trees.style',
      'trees.project_count',
      'trees.task_count',
      'trees.created_at',
      'trees.updated_at',
      'trees.version',
      'm.role as m_role',
      'm.status as m_status',
      'm.expires_at as m_expires_at',
      'o.plan as o_plan',
      'o.plan_expires_at as o_plan_expires_at',
    ])
    .where('trees.id', '=', id)
    .where('m.user_id', '=', user),
);
// The user's active memberships with their owners' plans (the caller decides which grant access now),
// in the trees' creation order: every list and search of the user asks this first.
const activeMemberships = compiledOnce((db, user: string) =>
  db
    .selectFrom('members as m')
    .innerJoin('trees as t', 't.id', 'm.tree_id')
    .innerJoin('users as o', 'o.id', 't.owner_id')
    .select(['m.tree_id', 'm.role', 'm.status', 'm.expires_at', 'o.plan', 'o.plan_expires_at'])
    .where('m.user_id', '=', user)
    .where('m.status', '=', 'active')
    .orderBy('t.seq'),
);
const treeIdOfProject = compiledOnce((db, id: string) =>
  db.selectFrom('projects').select(['tree_id']).where('id', '=', id),
);

/** A tree by id, when `ownerId` owns it. */
export async function findOwnTree(db: Reader, id: string, ownerId: string): Promise<TreeRow | undefined> {
  return (await treeOfOwner(db, id, ownerId))[0];
}

/** A project by id, when `ownerId` owns it. */
export async function findOwnProject(db: Reader, id: string, ownerId: string): Promise<ProjectRow | undefined> {
  return (await projectOfOwner(db, id, ownerId))[0];
}

/** The tree a project is in, whoever owns it (the caller resolves the access to that tree). */
export async function findTreeIdOfProject(db: Reader, id: string): Promise<string | undefined> {
  return (await treeIdOfProject(db, id))[0]?.tree_id;
}

/** The active memberships of `userId`, in their trees' creation order, with each owner's plan. */
export async function findActiveMemberships(db: Reader, userId: string) {
  return activeMemberships(db, userId);
}

/** A tree shared with `userId`, with their membership and the owner's plan. */
export async function findSharedTree(
  db: Reader,
  id: string,
  userId: string,
): Promise<{ tree: TreeRow; grant: GrantColumns } | undefined> {
  const [row] = await sharedTree(db, id, userId);
  if (row === undefined) return undefined;
  return { tree: treeOf(row), grant: grantOf(row) };
}

/** A task the actor owns or has a membership in its tree for, with its tree and that membership. */
export async function findTaskWithTree(
  db: Reader,
  id: string,
  actorId: string,
): Promise<{ task: TaskRow; tree: TreeRow; grant: GrantColumns } | undefined> {
  const [row] = await taskWithTreeFor(db, id, actorId);
  if (row === undefined) return undefined;
  const tree: TreeRow = {
    seq: row.tr_seq,
    id: row.tr_id,
    owner_id: row.tr_owner_id,
    name: row.tr_name,
    style: row.tr_style,
    project_count: row.tr_project_count,
    task_count: row.tr_task_count,
    created_at: row.tr_created_at,
    updated_at: row.tr_updated_at,
    version: row.tr_version,
  };
  return { task: taskOf(row), tree, grant: grantOf(row) };
}

/** A task the actor owns or has a membership in its tree for, with that membership. */
export async function findTaskFor(
  db: Reader,
  id: string,
  actorId: string,
): Promise<{ task: TaskRow; grant: GrantColumns } | undefined> {
  const [row] = await readableTaskFor(db, id, actorId);
  return row === undefined ? undefined : { task: taskOf(row), grant: grantOf(row) };
}

/** The owner, tree and row version of a task as findTaskFor finds it. */
export async function findTaskVersionFor(
  db: Reader,
  id: string,
  actorId: string,
): Promise<{ owner_id: string; tree_id: string; version: number; grant: GrantColumns } | undefined> {
  const [row] = await readableTaskVersionFor(db, id, actorId);
  return row === undefined
    ? undefined
    : { owner_id: row.owner_id, tree_id: row.tree_id, version: row.version, grant: grantOf(row) };
}

function grantOf(row: GrantColumns): GrantColumns {
  return {
    m_role: row.m_role,
    m_status: row.m_status,
    m_expires_at: row.m_expires_at,
    o_plan: row.o_plan,
    o_plan_expires_at: row.o_plan_expires_at,
  };
}

function treeOf(row: TreeRow): TreeRow {
  return {
    seq: row.seq,
    id: row.id,
    owner_id: row.owner_id,
    name: row.name,
    style: row.style,
    project_count: row.project_count,
    task_count: row.task_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/** The task's own columns of a joined row. Spelled out rather than destructured with a rest: this runs on every task request. */
function taskOf(row: TaskRow): TaskRow {
  return {
    seq: row.seq,
    id: row.id,
    owner_id: row.owner_id,
    tree_id: row.tree_id,
    project_id: row.project_id,
    title: row.title,
    text: row.text,
    notes: row.notes,
    status: row.status,
    deadline: row.deadline,
    color: row.color,
    position: row.position,
    completed_at: row.completed_at,
    created_by: row.created_by,
    assignee_ids: row.assignee_ids,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}
