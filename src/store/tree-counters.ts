import type { Db, Trx } from './types.js';
import type { TreeRow } from './rows.js';
import { compiledOnce } from './compiled.js';

const moveCounters = compiledOnce((db, id: string, projects: number, tasks: number) =>
  db
    .updateTable('trees')
    .set((eb) => ({ project_count: eb('project_count', '+', projects), task_count: eb('task_count', '+', tasks) }))
    .where('id', '=', id)
    .returning(['project_count', 'task_count']),
);

/**
 * Moves a tree's counters and answers their new values (undefined for a tree that is gone). The
 * UPDATE takes the tree row's write lock first, so concurrent writers of one tree queue behind it.
 */
export async function moveTreeCounters(
  trx: Trx,
  treeId: string,
  projects: number,
  tasks: number,
): Promise<{ project_count: number; task_count: number } | undefined> {
  return (await moveCounters(trx, treeId, projects, tasks))[0];
}

// The owner's own tree, charged and read in one statement, with the last sibling's position as
// the statement's snapshot saw it and the counters that snapshot held (see chargeOwnTree).
function chargeOwned(db: Db, id: string, owner: string, tasks: number) {
  return db
    .updateTable('trees')
    .set((eb) => ({ task_count: eb('task_count', '+', tasks) }))
    .where('id', '=', id)
    .where('owner_id', '=', owner)
    .returningAll()
    .returning((eb) =>
      eb
        .selectFrom('trees as seen')
        .select('seen.task_count')
        .whereRef('seen.id', '=', 'trees.id')
        .as('seen_task_count'),
    );
}
const chargeOwnedLoose = compiledOnce((db, id: string, owner: string, tasks: number) =>
  chargeOwned(db, id, owner, tasks).returning((eb) =>
    eb
      .selectFrom('tasks')
      .select('tasks.position')
      .whereRef('tasks.tree_id', '=', 'trees.id')
      .where('tasks.project_id', 'is', null)
      .orderBy('tasks.project_id', 'desc')
      .orderBy('tasks.position', 'desc')
      .limit(1)
      .as('last_position'),
  ),
);
const chargeOwnedInProject = compiledOnce((db, id: string, owner: string, tasks: number, project: string) =>
  chargeOwned(db, id, owner, tasks).returning((eb) =>
    eb
      .selectFrom('tasks')
      .select((inner) => inner.fn.max('tasks.position').as('max'))
      .whereRef('tasks.tree_id', '=', 'trees.id')
      .where('tasks.project_id', '=', project)
      .as('last_position'),
  ),
);

/**
 * Adds `tasks` to the task counter of a tree `ownerId` owns, and answers the tree as it is now
 * (undefined, having changed nothing, when it is not theirs or is gone): the access lookup and the
 * counter in one statement, which takes the tree row's write lock. With it comes the position of
 * the last task among the siblings of `projectId` (null: the loose tasks), null when there is
 * none, when it is certain to be the one after the lock: the statement reads it in the snapshot
 * it began with, so when another writer changed the counters while it waited for the lock, it is
 * left undefined and the caller reads it again (lastSiblingPosition).
 */
export async function chargeOwnTree(
  trx: Trx,
  treeId: string,
  ownerId: string,
  tasks: number,
  projectId: string | null,
): Promise<{ tree: TreeRow; lastPosition: number | null | undefined } | undefined> {
  const [row] =
    projectId === null
      ? await chargeOwnedLoose(trx, treeId, ownerId, tasks)
      : await chargeOwnedInProject(trx, treeId, ownerId, tasks, projectId);
  if (row === undefined) return undefined;
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
    version: row.version,
  };
  const unchanged = Number(row.seen_task_count) + tasks === row.task_count;
  return { tree, lastPosition: unchanged ? (row.last_position ?? null) : undefined };
}
