import { sql } from 'kysely';
import type { DialectName, Trx } from './db.js';

/**
 * Serializes writers of one owner inside a transaction, so count-then-insert limits hold under
 * concurrency. SQLite has one writer at a time already; PostgreSQL locks the user row.
 */
export async function lockOwner(trx: Trx, dialect: DialectName, ownerId: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select id from users where id = ${ownerId} for update`.execute(trx);
  }
}
