import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * PostgreSQL: `take_task_place(tree, owner, project, task_limit)` does, in one call, what a task
 * create must do after taking the tree's lock and before inserting: the project (if any) still
 * in the tree, the counter raised only below the plan's limit, then the last sibling's position.
 * Each statement of a function takes a fresh snapshot (READ COMMITTED), so the position is read
 * after the lock, as it would be in separate statements: concurrent creates in one tree see each
 * other. A create can then be one statement, one round trip (see store/own-task-insert.ts).
 * It answers one row (the last position, null without siblings) or none, having changed nothing,
 * when the tree is not the owner's, the project is not in it, or the tree is full.
 * SQLite needs none: its creates run synchronously on its one connection.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function take_task_place(p_tree text, p_owner text, p_project text, p_task_limit integer)
    returns table (last_position integer) language plpgsql volatile as $$
    begin
      -- As a create through separate statements does: a move of the project takes the same lock.
      if p_project is not null then
        perform 1 from trees where id = p_tree and owner_id = p_owner for no key update;
        if not exists (select 1 from projects where id = p_project and owner_id = p_owner and tree_id = p_tree) then
          return;
        end if;
      end if;
      update trees set task_count = task_count + 1 where id = p_tree and owner_id = p_owner and task_count < p_task_limit;
      if not found then
        return;
      end if;
      -- One step down the siblings index: max(position) under "project_id is null" reads every
      -- loose task of the tree, and "is not distinct from" could not use the index at all.
      if p_project is null then
        return query select (select t.position from tasks t where t.tree_id = p_tree and t.project_id is null
          order by t.project_id desc, t.position desc limit 1);
      else
        return query select (select t.position from tasks t where t.tree_id = p_tree and t.project_id = p_project
          order by t.position desc limit 1);
      end if;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`drop function take_task_place(text, text, text, integer)`.execute(db);
}
