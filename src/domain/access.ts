import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from './actor.js';
import type { Db, Trx } from '../store/db.js';
import type { GrantColumns, ProjectRow, TaskRow, TreeRow } from '../store/rows.js';
import { effectivePlan, planLimits, type PlanName } from './plans.js';
import { DomainError, notFound } from './errors.js';
import { isStorableId } from './fields.js';
import {
  findActiveMemberships,
  findOwnProject,
  findOwnTree,
  findSharedTree,
  findTaskFor,
  findTaskVersionFor,
  findTaskWithTree,
  findTreeIdOfProject,
} from '../store/access-lookups.js';

export type { ProjectRow, TaskRow, TreeRow } from '../store/rows.js';

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

/**
 * Whether the actor's credential reaches this tree (CONTRACT §16.1): every tree for sessions, the
 * CLI and unscoped credentials; for a tree-scoped one, only its trees. The one place the rule is
 * decided: every lookup below, and every list filter, treats a tree outside it as a foreign id.
 * A set test on the row already read: it never adds a query.
 */
export function inScope(actor: Actor, treeId: string): boolean {
  return actor.trees === null || actor.trees.has(treeId);
}

/** The access an owner has to their own tree. */
export function ownAccess(actor: Actor, tree: TreeRow): TreeAccess {
  return { tree, role: 'owner', ownerId: tree.owner_id, ownerPlan: actor.plan };
}

/** The actor's access to a tree someone else owns, or null (not shared, pending, revoked, expired, owner off Grove). */
async function sharedAccess(db: Reader, actor: Actor, treeId: string): Promise<TreeAccess | null> {
  const found = await findSharedTree(db, treeId, actor.user.id);
  if (found === undefined || !grants(found.grant)) return null;
  return {
    tree: found.tree,
    role: found.grant.m_role as TreeRole,
    ownerId: found.tree.owner_id,
    ownerPlan: effectivePlan(found.grant.o_plan ?? 'seed', found.grant.o_plan_expires_at),
  };
}

/**
 * @throws not_found for unknown, foreign or no longer accessible trees (never 403: no existence leaks).
 * The actor's own trees take one owner-scoped lookup; anything else is resolved through a membership.
 */
export async function treeAccess(db: Reader, actor: Actor, treeId: string): Promise<TreeAccess> {
  // An id holding NUL would be a PostgreSQL error, not an answer; no record can have it.
  if (!isStorableId(treeId) || !inScope(actor, treeId)) throw notFound('tree');
  const own = await findOwnTree(db, treeId, actor.user.id);
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
  const own = await findOwnProject(db, projectId, actor.user.id);
  if (own !== undefined) {
    if (!inScope(actor, own.tree_id)) throw notFound('project');
    return { project: own, access: await treeAccess(db, actor, own.tree_id) };
  }
  const treeId = await findTreeIdOfProject(db, projectId);
  const access = treeId === undefined || !inScope(actor, treeId) ? null : await sharedAccess(db, actor, treeId);
  if (access === null) throw notFound('project');
  const project = await findOwnProject(db, projectId, access.ownerId);
  if (project === undefined) throw notFound('project');
  return { project, access };
}

/** @throws not_found */
export async function taskAccess(
  db: Reader,
  actor: Actor,
  taskId: string,
): Promise<{ task: TaskRow; access: TreeAccess }> {
  const found = isStorableId(taskId) ? await findTaskWithTree(db, taskId, actor.user.id) : undefined;
  if (found === undefined || !readableBy(actor, found.task.owner_id, found.task.tree_id, found.grant))
    throw notFound('task');
  const { task, tree, grant } = found;
  if (task.owner_id === actor.user.id) return { task, access: ownAccess(actor, tree) };
  return {
    task,
    access: {
      tree,
      role: grant.m_role as TreeRole,
      ownerId: tree.owner_id,
      ownerPlan: effectivePlan(grant.o_plan ?? 'seed', grant.o_plan_expires_at),
    },
  };
}

/** A task the actor may read: their own, or one of a tree shared with them that grants access now. @throws not_found */
export async function readableTask(db: Reader, actor: Actor, taskId: string): Promise<TaskRow> {
  const found = isStorableId(taskId) ? await findTaskFor(db, taskId, actor.user.id) : undefined;
  if (found === undefined || !readableBy(actor, found.task.owner_id, found.task.tree_id, found.grant))
    throw notFound('task');
  return found.task;
}

/** The version of a task the actor may read. @throws not_found as readableTask does */
export async function readableTaskVersion(db: Reader, actor: Actor, taskId: string): Promise<number> {
  const found = isStorableId(taskId) ? await findTaskVersionFor(db, taskId, actor.user.id) : undefined;
  if (found === undefined || !readableBy(actor, found.owner_id, found.tree_id, found.grant)) throw notFound('task');
  return found.version;
}

/** A membership found with a row grants access now. */
function grants(grant: GrantColumns): boolean {
  return (
    grant.m_status !== null &&
    membershipGrants(
      { status: grant.m_status, expires_at: grant.m_expires_at },
      { plan: grant.o_plan ?? 'seed', plan_expires_at: grant.o_plan_expires_at },
    )
  );
}

/** A row found by owner or membership, in a tree the credential reaches: the owner's, or a membership that grants access now. */
function readableBy(actor: Actor, ownerId: string, treeId: string, grant: GrantColumns): boolean {
  return inScope(actor, treeId) && (ownerId === actor.user.id || grants(grant));
}

/**
 * Every tree the actor can see right now: their own (by owner) and the ids of trees shared with
 * them that grant access at this moment, both within the credential's trees. Lists and search filter by this.
 */
export interface VisibleTrees {
  ownerId: string;
  shared: { treeId: string; role: TreeRole }[];
  /** The credential's trees (Actor.trees): the owner's rows count only in these; null: all of them. */
  scope: ReadonlySet<string> | null;
}

export async function visibleTrees(db: Reader, actor: Actor): Promise<VisibleTrees> {
  const rows = await findActiveMemberships(db, actor.user.id);
  const now = new Date();
  return {
    ownerId: actor.user.id,
    shared: rows
      .filter((r) => membershipGrants(r, r, now) && inScope(actor, r.tree_id))
      .map((r) => ({ treeId: r.tree_id, role: r.role as TreeRole })),
    scope: actor.trees,
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
  const owner = sql<SqlBool>`${column('owner_id')} = ${visible.ownerId}`;
  // A tree-scoped credential sees only its own trees that it names (never empty: 1 to 50 ids).
  const own =
    visible.scope === null
      ? owner
      : sql<SqlBool>`(${owner} and ${column(treeColumn)} in (${sql.join([...visible.scope])}))`;
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
