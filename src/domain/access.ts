import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Actor } from './actor.js';
import type { Db, Trx } from '../store/db.js';
import type { ProjectTable, TaskTable, TreeTable } from '../store/schema.js';
import { effectivePlan, planLimits, type PlanName } from './plans.js';
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

/** A membership grants access while it is active and unexpired and the owner's plan is Grove (CONTRACT §10). */
export function membershipGrants(
  member: { status: string; expires_at: string | null },
  owner: { plan: string; plan_expires_at: string | null },
  now = new Date(),
): boolean {
  if (member.status !== 'active') return false;
  if (member.expires_at !== null && Date.parse(member.expires_at) <= now.getTime()) return false;
  return planLimits[effectivePlan(owner.plan, owner.plan_expires_at, now)].sharing;
}

function ownAccess(actor: Actor, tree: TreeRow): TreeAccess | null {
  return tree.owner_id === actor.user.id
    ? { tree, role: 'owner', ownerId: tree.owner_id, ownerPlan: actor.plan }
    : null;
}

const treeColumns = [
  'trees.seq',
  'trees.id',
  'trees.owner_id',
  'trees.name',
  'trees.style',
  'trees.project_count',
  'trees.task_count',
  'trees.created_at',
  'trees.updated_at',
] as const;

// Point lookups on every request: compiled once (see compiledOnce), always scoped to the owner.
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
  readableTaskQuery(db, id, actor).select(['tasks.owner_id', 'tasks.version']),
);
// A tree someone shared with the user, with what decides the access: the membership and the owner's plan.
const sharedTree = compiledOnce((db, id: string, user: string) =>
  db
    .selectFrom('trees')
    .innerJoin('members as m', 'm.tree_id', 'trees.id')
    .innerJoin('users as o', 'o.id', 'trees.owner_id')
    .select(treeColumns)
    .select([
      'm.role as m_role',
      'm.status as m_status',
      'm.expires_at as m_expires_at',
      'o.plan as o_plan',
      'o.plan_expires_at as o_plan_expires_at',
    ])
    .where('trees.id', '=', id)
    .where('m.user_id', '=', user),
);
const treeIdOfProject = compiledOnce((db, id: string) =>
  db.selectFrom('projects').select(['tree_id']).where('id', '=', id),
);

/** The actor's access to a tree someone else owns, or null (not shared, pending, revoked, expired, owner off Grove). */
async function sharedAccess(db: Reader, actor: Actor, treeId: string): Promise<TreeAccess | null> {
  const [row] = await sharedTree(db, treeId, actor.user.id);
  if (row === undefined) return null;
  const owner = { plan: row.o_plan, plan_expires_at: row.o_plan_expires_at };
  if (!membershipGrants({ status: row.m_status, expires_at: row.m_expires_at }, owner)) return null;
  const tree: TreeRow = {
    seq: row.seq,
    id: row.id,
    owner_id: row.owner_id,
    name: row.name,
    style: row.style,
    project_count: row.project_count,
    task_count: row.task_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  return {
    tree,
    role: row.m_role as TreeRole,
    ownerId: row.owner_id,
    ownerPlan: effectivePlan(owner.plan, owner.plan_expires_at),
  };
}

/**
 * @throws not_found for unknown, foreign or no longer accessible trees (never 403: no existence leaks).
 * The actor's own trees take one owner-scoped lookup; anything else is resolved through a membership.
 */
export async function treeAccess(db: Reader, actor: Actor, treeId: string): Promise<TreeAccess> {
  // An id holding NUL would be a PostgreSQL error, not an answer; no record can have it.
  if (!isStorableId(treeId)) throw notFound('tree');
  const [own] = await treeOfOwner(db, treeId, actor.user.id);
  const access = own !== undefined ? ownAccess(actor, own) : await sharedAccess(db, actor, treeId);
  if (access === null) throw notFound('tree');
  return access;
}

/** @throws not_found */
export async function projectAccess(
  db: Reader,
  actor: Actor,
  projectId: string,
): Promise<{ project: ProjectRow; access: TreeAccess }> {
  if (!isStorableId(projectId)) throw notFound('project');
  const [own] = await projectOfOwner(db, projectId, actor.user.id);
  if (own !== undefined) return { project: own, access: await treeAccess(db, actor, own.tree_id) };
  const [located] = await treeIdOfProject(db, projectId);
  const access = located === undefined ? null : await sharedAccess(db, actor, located.tree_id);
  if (access === null) throw notFound('project');
  const [project] = await projectOfOwner(db, projectId, access.ownerId);
  if (project === undefined) throw notFound('project');
  return { project, access };
}

/** @throws not_found */
export async function taskAccess(
  db: Reader,
  actor: Actor,
  taskId: string,
): Promise<{ task: TaskRow; access: TreeAccess }> {
  const row = await readableRow(taskWithTreeFor, db, actor, taskId);
  const found = splitTaskRow(actor, row);
  if (row.owner_id === actor.user.id) return found;
  return {
    task: found.task,
    access: {
      ...found.access,
      role: row.m_role as TreeRole,
      ownerPlan: effectivePlan(row.o_plan ?? 'seed', row.o_plan_expires_at),
    },
  };
}

/** A task the actor may read: their own, or one of a tree shared with them that grants access now. @throws not_found */
export async function readableTask(db: Reader, actor: Actor, taskId: string): Promise<TaskRow> {
  return taskOf(await readableRow(readableTaskFor, db, actor, taskId));
}

/** The version of a task the actor may read. @throws not_found as readableTask does */
export async function readableTaskVersion(db: Reader, actor: Actor, taskId: string): Promise<number> {
  return (await readableRow(readableTaskVersionFor, db, actor, taskId)).version;
}

interface AccessColumns {
  owner_id: string;
  m_status: string | null;
  m_expires_at: string | null;
  o_plan: string | null;
  o_plan_expires_at: string | null;
}

/** The row `lookup` finds for a task when the actor may read that task now. @throws not_found */
async function readableRow<R extends AccessColumns>(
  lookup: (db: Reader, id: string, actor: string) => Promise<R[]>,
  db: Reader,
  actor: Actor,
  taskId: string,
): Promise<R> {
  if (!isStorableId(taskId)) throw notFound('task');
  const [row] = await lookup(db, taskId, actor.user.id);
  if (row === undefined || !readableBy(actor, row)) throw notFound('task');
  return row;
}

/** A row found by owner or membership: the owner's, or a membership that grants access now. */
function readableBy(actor: Actor, row: AccessColumns): boolean {
  if (row.owner_id === actor.user.id) return true;
  return (
    row.m_status !== null &&
    membershipGrants(
      { status: row.m_status, expires_at: row.m_expires_at },
      { plan: row.o_plan ?? 'seed', plan_expires_at: row.o_plan_expires_at },
    )
  );
}

type TaskWithTree = Awaited<ReturnType<typeof taskWithTreeFor>>[number];

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

function splitTaskRow(actor: Actor, row: TaskWithTree): { task: TaskRow; access: TreeAccess } {
  const task = taskOf(row);
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
  };
  return { task, access: { tree, role: 'owner', ownerId: tree.owner_id, ownerPlan: actor.plan } };
}

/**
 * Every tree the actor can see right now: their own (by owner) and the ids of trees shared with
 * them that grant access at this moment. Lists and search filter by this.
 */
export interface VisibleTrees {
  ownerId: string;
  shared: { treeId: string; role: TreeRole }[];
}

export async function visibleTrees(db: Reader, actor: Actor): Promise<VisibleTrees> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('trees as t', 't.id', 'm.tree_id')
    .innerJoin('users as o', 'o.id', 't.owner_id')
    .select(['m.tree_id', 'm.role', 'm.status', 'm.expires_at', 'o.plan', 'o.plan_expires_at'])
    .where('m.user_id', '=', actor.user.id)
    .where('m.status', '=', 'active')
    .orderBy('t.seq')
    .execute();
  const now = new Date();
  return {
    ownerId: actor.user.id,
    shared: rows
      .filter((r) => membershipGrants(r, r, now))
      .map((r) => ({ treeId: r.tree_id, role: r.role as TreeRole })),
  };
}

/**
 * The rows of a single-table query that lie in trees the actor can see: their own rows by owner,
 * plus the rows of trees shared with them (`tree_id`, or `id` when the table is `trees`).
 */
export function inVisibleTrees(
  visible: VisibleTrees,
  treeColumn: 'tree_id' | 'id' = 'tree_id',
  table?: string,
): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(table === undefined ? name : `${table}.${name}`);
  const own = sql<SqlBool>`${column('owner_id')} = ${visible.ownerId}`;
  if (visible.shared.length === 0) return own;
  return sql<SqlBool>`(${own} or ${column(treeColumn)} in (${sql.join(visible.shared.map((s) => s.treeId))}))`;
}

/** The actor's role in a tree of a list row. */
export function roleIn(visible: VisibleTrees, tree: { id: string; owner_id: string }): TreeRole {
  if (tree.owner_id === visible.ownerId) return 'owner';
  return visible.shared.find((s) => s.treeId === tree.id)?.role ?? 'viewer';
}

/** Those of `userIds` who can see the tree now: its owner and its members whose membership grants access. */
export async function usersWhoSee(db: Reader, access: TreeAccess, userIds: string[]): Promise<Set<string>> {
  const seeing = new Set<string>();
  if (userIds.includes(access.ownerId)) seeing.add(access.ownerId);
  const others = userIds.filter((id) => id !== access.ownerId);
  if (others.length === 0) return seeing;
  const owner = await db
    .selectFrom('users')
    .select(['plan', 'plan_expires_at'])
    .where('id', '=', access.ownerId)
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('members')
    .select(['user_id', 'status', 'expires_at'])
    .where('tree_id', '=', access.tree.id)
    .where('user_id', 'in', others)
    .execute();
  for (const m of members) if (m.user_id !== null && membershipGrants(m, owner)) seeing.add(m.user_id);
  return seeing;
}

/** Writing into a tree needs the owner or an editor. @throws forbidden */
export function requireTreeWrite(access: TreeAccess): void {
  if (access.role === 'viewer') throw new DomainError('forbidden', 'Your role in this tree only allows reading.');
}

/** Renaming, deleting and sharing a tree are the owner's. @throws forbidden */
export function requireTreeOwner(access: TreeAccess): void {
  if (access.role !== 'owner') throw new DomainError('forbidden', 'Only the tree owner can do this.');
}
