import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 for this runtime. Version 12 wraps V8 objects directly, and on Node 24 its
 * statement finalizers abort the process (`RemoveEnvironmentCleanupHook: (env) != nullptr`,
 * WiseLibs/better-sqlite3#1515). Version 13 is built on Node-API 10, which Node 20 lacks. So
 * Node-API 10 runtimes load 13 (installed under the alias `better-sqlite3-napi`), older ones 12.
 */
export function loadSqlite(): typeof BetterSqlite3 {
  return require(sqliteModule()) as typeof BetterSqlite3;
}

/** The file loadSqlite loads, for a worker thread to load the same (store/sqlite-checkpoints.ts). */
export function sqliteModulePath(): string {
  return require.resolve(sqliteModule());
}

function sqliteModule(): string {
  return Number(process.versions.napi) >= 10 ? 'better-sqlite3-napi' : 'better-sqlite3';
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The database Kysely is handed: the better-sqlite3 handle behind an adapter that keeps prepared
 * statements by SQL text (least recently used out). Kysely prepares every query anew, and with
 * better-sqlite3 preparing costs more than running a point lookup. Queries are few and shaped by
 * code; safe because Kysely runs one statement at a time on the single connection and we never
 * stream rows. The handle itself is left as it is: statements of our own (store/compiled.ts)
 * prepare on it directly, so one whose modes they change (raw rows) is never one Kysely is given.
 */
export class CachedStatements implements SqliteDatabase {
  private readonly cache = new Map<string, SqliteStatement>();

  constructor(private readonly handle: BetterSqlite3.Database) {}

  prepare(source: string): SqliteStatement {
    let statement = this.cache.get(source);
    if (statement !== undefined) {
      this.cache.delete(source);
    } else {
      statement = this.handle.prepare(source) as unknown as SqliteStatement;
      if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(source, statement);
    return statement;
  }

  close(): void {
    this.handle.close();
  }
}
