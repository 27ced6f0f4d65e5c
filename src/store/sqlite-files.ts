import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { loadSqlite } from './sqlite-driver.js';
import { migrations } from './migrations/index.js';

/**
 * Backup and restore of the embedded store, as whole files. Operator tools only (`tasktree
 * backup|restore`); the server never calls these.
 */

/** Where the embedded store keeps its database inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'tasktree.db';

/** What the backup API copies after its first step: everything, in one step, so one read snapshot. */
const ALL_PAGES = 0x7fffffff;

export class NotTaskTreeDatabase extends Error {}
export class DatabaseInUse extends Error {}

/**
 * Copies the live database to `target` with SQLite's online backup API while the service may
 * be writing. All pages go in a single step, which holds one read transaction: the copy is the
 * database as of one instant, and WAL mode lets writers go on meanwhile. (In small steps, every
 * write by the server would restart the copy.) The copy is checked, made a self-contained file
 * (no -wal beside it), and only then renamed into place, so `target` is never half written.
 */
export async function backupSqlite(source: string, target: string): Promise<{ bytes: number }> {
  if (!existsSync(source)) throw new Error(`no database at ${source}; is DATA_DIR right?`);
  const Sqlite = loadSqlite();
  const partial = `${target}.partial-${process.pid}`;
  const live = new Sqlite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(partial, { progress: () => ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    live.close();
  }
  try {
    const copy = new Sqlite(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      checkTaskTreeDatabase(copy, partial);
    } finally {
      copy.close();
    }
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return { bytes: statSync(target).size };
}

/**
 * Refuses anything but a sound Task Tree database this version can run: an SQLite file that
 * passes `quick_check`, holds the migration table and the core tables, and names no migration
 * this version does not know (a newer release's file).
 */
export function checkTaskTreeDatabase(db: BetterSqlite3.Database, name: string): void {
  let tables: Set<string>;
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new NotTaskTreeDatabase(`${name} is damaged: ${String(check)}`);
    tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
  } catch (err) {
    if (err instanceof NotTaskTreeDatabase) throw err;
    throw new NotTaskTreeDatabase(
      `${name} is not an SQLite database (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  for (const table of ['kysely_migration', 'users', 'trees', 'tasks']) {
    if (!tables.has(table)) throw new NotTaskTreeDatabase(`${name} is not a Task Tree database (no ${table} table)`);
  }
  const applied = (db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name);
  const unknown = applied.filter((m) => !(m in migrations));
  if (unknown.length > 0)
    throw new NotTaskTreeDatabase(
      `${name} was made by a newer Task Tree (migrations ${unknown.join(', ')}); upgrade first`,
    );
}

/**
 * Takes the database for ourselves, or says it is in use. Every connection in WAL mode holds a
 * shared lock on the file for as long as it is open, and the lock goes with its process, so
 * an exclusive lock is granted only when no server (or other tool) has the database open, and a
 * crashed server leaves nothing stale behind, unlike a pid file. Locks are per process: this
 * detects other processes, which is what a running service is.
 */
function lockExclusively(file: string): BetterSqlite3.Database {
  const Sqlite = loadSqlite();
  const db = new Sqlite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseInUse(`${file} is in use: stop the service (and any other tasktree command) first`);
    }
    throw err;
  }
}

/**
 * Puts `from` in place of the database at `live`, keeping the previous file as
 * `<live>.<timestamp>.bak`. Refuses a file that is not a Task Tree database, and refuses while
 * anything has the live database open; the exclusive lock is held through the swap, so a server
 * starting meanwhile waits and then fails instead of writing into the file being replaced.
 */
export function restoreSqlite(from: string, live: string, now = new Date()): { previous: string | null } {
  if (!existsSync(from)) throw new Error(`no file at ${from}`);
  const Sqlite = loadSqlite();
  const candidate = new Sqlite(from, { readonly: true, fileMustExist: true });
  try {
    checkTaskTreeDatabase(candidate, from);
  } finally {
    candidate.close();
  }
  const staged = `${live}.restoring-${process.pid}`;
  copyFileSync(from, staged);
  if (!existsSync(live)) {
    renameSync(staged, live);
    return { previous: null };
  }
  const previous = `${live}.${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.bak`;
  let held: BetterSqlite3.Database;
  try {
    held = lockExclusively(live);
  } catch (err) {
    rmSync(staged, { force: true });
    throw err;
  }
  try {
    // Everything committed moves from the WAL into the file, so the .bak is complete on its own.
    held.pragma('wal_checkpoint(TRUNCATE)');
    renameSync(live, previous);
    renameSync(staged, live);
    // The old file's (now empty) WAL and index must not sit beside the restored file.
    for (const leftover of [`${live}-wal`, `${live}-shm`]) rmSync(leftover, { force: true });
  } finally {
    held.close();
  }
  return { previous };
}
