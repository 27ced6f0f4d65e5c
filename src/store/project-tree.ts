import { sql } from 'kysely';
import type { Trx } from './db.js';

/**
 * The project and every project below it, as the CTE `sub(id)`. UNION, not UNION ALL: both
 * SQLite and PostgreSQL drop a row already produced, so each id is visited once and a cycle left
 * in stored data (a race of an older release, a hand edit) ends the walk instead of looping
 * forever. A recursive CTE is a loop in both databases, so it has no depth limit.
 */
function subtree(rootId: string) {
  return sql`with recursive sub(id) as (
      select cast(${rootId} as text)
      union
      select p.id from projects p join sub on p.parent_id = sub.id
    )`;
}

export async function subtreeIds(trx: Trx, rootId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${subtree(rootId)} select id from sub`.execute(trx);
  return rows.map((r) => r.id);
}

/** The projects of a subtree with their parents, for walks the domain makes over it. */
export async function subtreeLinks(trx: Trx, rootId: string): Promise<{ id: string; parent_id: string | null }[]> {
  const { rows } = await sql<{
    id: string;
    parent_id: string | null;
  }>`${subtree(rootId)} select p.id, p.parent_id from projects p join sub on p.id = sub.id`.execute(trx);
  return rows;
}

/** How many projects the chain from `id` up to the tree's top holds, `id` included (each counted once, as above). */
export async function chainLength(trx: Trx, id: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    with recursive up(id) as (
      select cast(${id} as text)
      union
      select p.parent_id from projects p join up on p.id = up.id where p.parent_id is not null
    )
    select count(*) as n from up`.execute(trx);
  return Number(rows[0]!.n);
}

/**
 * Deletes whole subtrees in one statement. The parent key does not cascade (migration 0016):
 * one statement removes every level at once, where a cascade would nest one step per level.
 */
export async function deleteProjects(trx: Trx, ids: string[]): Promise<void> {
  if (ids.length > 0) await trx.deleteFrom('projects').where('id', 'in', ids).execute();
}
