import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * PostgreSQL: `take_task_place` (migration 0010) finds the last sibling with one step down the
 * siblings index, in whatever plan its connection cached. A plan is cached once per connection,
 * from the statistics of that moment; with a few hundred tasks and no ANALYZE yet, the
 * `(project_id, seq)` index is one level shallower than the siblings index and the planner
 * priced "every loose task of every tree, then sort" below "one step down": that connection then
 * read all loose tasks of all accounts on every create until the next ANALYZE (a third of the
 * database's CPU per create under load). Sorting is what every other plan needs, so with sorts
 * off for the function only the siblings index is left; its queries never sort anything.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter function take_task_place(text, text, text, integer) set enable_sort = off set enable_incremental_sort = off`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter function take_task_place(text, text, text, integer) reset all`.execute(db);
}
