import { CompiledQuery, type Compilable } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db, Trx } from './db.js';

const ARG = '\u0000arg:';

/** The better-sqlite3 handle behind a SQLite Kysely instance, for reads that need no transaction. */
const sqliteHandles = new WeakMap<object, BetterSqlite3.Database>();

export function registerSqliteHandle(db: Db, handle: BetterSqlite3.Database): void {
  sqliteHandles.set(db, handle);
}

/**
 * A hot query built and compiled once per database, then run with new arguments. Kysely
 * otherwise builds and compiles the query tree on every call, which costs more than a point
 * lookup itself. The query's shape must not depend on its arguments: it is built once with
 * placeholders, and each placeholder's position in the compiled parameters is remembered.
 *
 * On SQLite, outside any transaction, the statement runs directly on the connection: Kysely's
 * way there (a connection lock and several promise hops) costs more than the lookup. It is
 * synchronous, so nothing can interleave; inside a transaction (ours or anyone's on the one
 * connection) it waits for Kysely's lock like any other query and so never reads uncommitted rows.
 */
export function compiledOnce<A extends string[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  const cache = new WeakMap<object, { sql: string; slots: (number | { value: unknown })[] }>();
  return async function run(db: Db | Trx, ...args: A): Promise<R[]> {
    // Keyed by the dialect adapter, which a database and its transactions share.
    const key = db.getExecutor().adapter;
    let entry = cache.get(key);
    if (entry === undefined) {
      const placeholders = args.map((_, i) => `${ARG}${i}`) as A;
      const compiled = build(db as Db, ...placeholders).compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(ARG) ? Number(p.slice(ARG.length)) : { value: p }));
      entry = { sql: compiled.sql, slots };
      cache.set(key, entry);
    }
    const parameters = entry.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
    const handle = sqliteHandles.get(db);
    if (handle !== undefined && !handle.inTransaction) return handle.prepare(entry.sql).all(...parameters) as R[];
    const result = await db.executeQuery<R>(CompiledQuery.raw(entry.sql, parameters));
    return result.rows;
  };
}
