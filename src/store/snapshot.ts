import type { Db, Trx } from './types.js';
import { holdingConnection, isPostgres } from './compiled.js';

/**
 * A read transaction that sees one consistent state for all its statements. SQLite's
 * transaction already does; PostgreSQL needs REPEATABLE READ for that. It holds the one SQLite
 * connection until it ends, so statements compiled once run directly on it (see holdingConnection).
 */
export function inReadSnapshot<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const builder = db.transaction();
  return (isPostgres(db) ? builder.setIsolationLevel('repeatable read') : builder).execute((trx) =>
    holdingConnection(trx, () => work(trx)),
  );
}
