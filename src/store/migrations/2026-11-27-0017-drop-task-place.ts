import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';
import * as taskPlace from './2026-11-25-0010-task-place.js';
import * as taskPlacePlan from './2026-11-27-0012-task-place-plan.js';

/**
 * PostgreSQL: drops `take_task_place` (migrations 0010 and 0012). It held a second copy of a task
 * create's rules (the plan limit, the project in the tree, the position, in PL/pgSQL); createTask
 * in the domain is now the only one, and the store makes it few round trips instead (issue #31).
 * Down brings the function back as those migrations made it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`drop function if exists take_task_place(text, text, text, integer)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await taskPlace.up(db);
  await taskPlacePlan.up(db);
}
