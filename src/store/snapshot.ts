import type { Db, DialectName, Trx } from './db.js';

/**
 * A read transaction that sees one consistent state for all its statements. SQLite's
 * transaction already does; PostgreSQL needs REPEATABLE READ for that.
 */
export function inReadSnapshot<T>(db: Db, dialect: DialectName, work: (trx: Trx) => Promise<T>): Promise<T> {
  const builder = db.transaction();
  return (dialect === 'postgres' ? builder.setIsolationLevel('repeatable read') : builder).execute(work);
}
