import { sql } from 'kysely';
import type { Trx } from './db.js';

/**
 * The project and every project below it. UNION, not UNION ALL: both SQLite and PostgreSQL drop
 * a row already produced, so each id is visited once and a cycle left in stored data (a race of
 * an older release, a hand edit) ends the walk instead of looping forever.
 */
export async function subtreeIds(trx: Trx, rootId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive sub(id) as (
      select cast(${rootId} as text)
      union
      select p.id from projects p join sub on p.parent_id = sub.id
    )
    select id from sub`.execute(trx);
  return rows.map((r) => r.id);
}
