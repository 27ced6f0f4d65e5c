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
