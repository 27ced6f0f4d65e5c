import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 for this runtime. Version 12 wraps V8 objects directly, and on Node 24 its
 * statement finalizers abort the process (`RemoveEnvironmentCleanupHook: (env) != nullptr`,
 * WiseLibs/better-sqlite3#1515). Version 13 is built on Node-API 10, which Node 20 lacks. So
 * Node-API 10 runtimes load 13 (installed under the alias `better-sqlite3-napi`), older ones 12.
 */
export function loadSqlite(): typeof BetterSqlite3 {
  if (Number(process.versions.napi) >= 10) return require('better-sqlite3-napi') as typeof BetterSqlite3;
  return require('better-sqlite3') as typeof BetterSqlite3;
}

const STATEMENT_CACHE_SIZE = 500;

const ownPrepares = new WeakMap<BetterSqlite3.Database, (source: string) => BetterSqlite3.Statement>();

/**
 * A statement of the caller's own, outside the shared cache: one whose modes it changes (raw
 * rows) must not be the one Kysely is handed for the same SQL text.
 */
export function prepareOwn(db: BetterSqlite3.Database, source: string): BetterSqlite3.Statement {
  return (ownPrepares.get(db) ?? db.prepare.bind(db))(source);
}

/**
 * Kysely prepares every query anew, and with better-sqlite3 preparing costs more than running
 * a point lookup. Queries are few and shaped by code, so their prepared statements are kept by
 * SQL text (least recently used out). Safe because Kysely runs one statement at a time on the
 * single connection and we never stream rows.
 */
export function withStatementCache(db: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = db.prepare.bind(db);
  ownPrepares.set(db, prepare);
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement !== undefined) {
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof db.prepare;
  return db;
}
