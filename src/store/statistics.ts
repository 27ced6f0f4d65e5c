import { sql } from 'kysely';
import type { Db } from './types.js';
import { isPostgres } from './compiled.js';

/**
 * After a large insert into tasks: PostgreSQL plans search from table statistics, which stay
 * stale until autovacuum comes round, and a stale plan scans every row. SQLite keeps no such
 * statistics for these queries, so there is nothing to refresh.
 */
export async function refreshTaskStatistics(db: Db): Promise<void> {
  if (isPostgres(db)) await sql`analyze tasks`.execute(db);
}
