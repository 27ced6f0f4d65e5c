import { sql } from 'kysely';
import type { Db, Trx } from './db.js';
import type { TaskRow } from '../domain/access.js';
import { compiledOnce } from './compiled.js';

/** A new task's columns as createTask builds them; `position` null for "after the last sibling". */
export type NewTask = Omit<TaskRow, 'seq' | 'version' | 'position'> & { position: number | null };

export interface CreatedEntry {
  id: string;
  via: string;
  changes: string;
}

// One statement: `take_task_place` (migration 0010) takes the tree's lock, checks the project
// and the limit and answers the last sibling's position; the row and its history entry are
// inserted from its answer, so a refused create inserts nothing.
const insertInOwnTree = compiledOnce(
  (
    db,
    id: string,
    owner: string,
    tree: string,
    project: string | null,
    title: string,
    text: string,
    notes: string,
    status: string,
    deadline: string | null,
    color: string,
    position: number | null,
    completedAt: string | null,
    createdBy: string,
    assignees: string,
    now: string,
    taskLimit: number,
    first: number,
    last: number,
    entryId: string,
    via: string,
    changes: string,
  ) => ({
    compile: () =>
      sql<TaskRow>`
    with place as (select last_position from take_task_place(${tree}, ${owner}, ${project}, ${taskLimit})),
    task as (
      insert into tasks (id, owner_id, tree_id, project_id, title, text, notes, status, deadline, color, position, completed_at, created_by, assignee_ids, created_at, updated_at)
      select ${id}, ${owner}, ${tree}, ${project}, ${title}, ${text}, ${notes}, ${status}, ${deadline}, ${color},
        coalesce(${position}, case when place.last_position is null then ${first} else least(place.last_position::bigint + 1, ${last})::integer end), ${completedAt}, ${createdBy}, ${assignees}, ${now}, ${now}
      from place
      returning *
    ),
    entry as (
      insert into history (id, owner_id, tree_id, at, actor_id, via, entity, entity_id, action, changes)
      select ${entryId}, ${owner}, ${tree}, ${now}, ${createdBy}, ${via}, 'task', task.id, 'created', ${changes} from task
    )
    select * from task`.compile(db),
  }),
);

/**
 * PostgreSQL: creates a task in the creator's own tree in one statement, which outside a
 * transaction is one round trip and one commit; every rule holds as in separate statements (see
 * migration 0010). Undefined, having changed nothing, when the tree is not the owner's, the
 * project not in it or the tree full: the general way then decides and names the error.
 * `positions` are the first place and the last one a position may take.
 */
export async function insertTaskInOwnTree(
  db: Db | Trx,
  task: NewTask,
  taskLimit: number,
  positions: { first: number; last: number },
  entry: CreatedEntry,
): Promise<TaskRow | undefined> {
  const [row] = await insertInOwnTree(
    db,
    task.id,
    task.owner_id,
    task.tree_id,
    task.project_id,
    task.title,
    task.text,
    task.notes,
    task.status,
    task.deadline,
    task.color,
    task.position,
    task.completed_at,
    task.created_by,
    task.assignee_ids,
    task.created_at,
    taskLimit,
    positions.first,
    positions.last,
    entry.id,
    entry.via,
    entry.changes,
  );
  return row;
}
