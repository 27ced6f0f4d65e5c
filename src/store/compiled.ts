import { CompiledQuery, PostgresAdapter, type Compilable } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db, Trx } from './types.js';
import { storeStateOf, type CompiledEntry, type Driver } from './store-state.js';

const ARG = '\u0000arg:';

export type { Driver } from './store-state.js';

function driverOf(db: Db | Trx): Driver | undefined {
  return storeStateOf(db)?.driver;
}

/** Whether `db` is on PostgreSQL; the one place outside migrations that asks. */
export function isPostgres(db: Db | Trx): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Runs `work` in `trx`, a transaction of ours that holds SQLite's one connection until it ends
 * (Kysely's lock): meanwhile nothing else can run a statement on it, so statements compiled once
 * may run synchronously on the handle. On PostgreSQL it only runs `work`.
 */
export async function holdingConnection<T>(trx: Trx, work: () => Promise<T>): Promise<T> {
  const state = storeStateOf(trx);
  if (state === undefined || 'postgres' in state.driver) return work();
  state.holder = trx;
  try {
    return await work();
  } finally {
    state.holder = null;
  }
}

/** Has PostgreSQL prepare `text` by name wherever this store runs it (no-op on SQLite). */
export function nameStatement(db: Db | Trx, text: string): void {
  const driver = driverOf(db);
  if (driver !== undefined && 'postgres' in driver) driver.postgres.name(text);
}

/** The SQLite handle a statement of `db` may run on directly now, if any. */
function directHandle(db: Db | Trx): BetterSqlite3.Database | undefined {
  const state = storeStateOf(db);
  if (state === undefined || !('sqlite' in state.driver)) return undefined;
  if (db.isTransaction) return state.holder === db ? state.driver.sqlite : undefined;
  // Outside any transaction: directly only while nobody's transaction is open on the connection.
  return state.driver.sqlite.inTransaction ? undefined : state.driver.sqlite;
}

/** Runs a statement without parameters or result (a savepoint), directly where it may. */
export async function execute(db: Db | Trx, text: string): Promise<void> {
  const direct = directHandle(db);
  if (direct !== undefined) direct.prepare(text).run();
  else await db.executeQuery(CompiledQuery.raw(text, []));
}

interface DirectStatement {
  statement: BetterSqlite3.Statement;
  /** Builds a row from its values (as many as `width`); null for a statement that returns no rows. */
  toRow: ((values: unknown[]) => unknown) | null;
  width: number;
}

/**
 * A compiled statement of our own on the SQLite handle, reading rows as arrays of values: as
 * objects, better-sqlite3 looks up every column's name in V8's string table for every row (about
 * 3 µs of a task's 23 columns). Each row becomes an object from a literal made for the statement's
 * columns, so its shape is the same every time.
 */
function directStatement(handle: BetterSqlite3.Database, sql: string): DirectStatement {
  const statement = handle.prepare(sql);
  if (!statement.reader) return { statement, toRow: null, width: 0 };
  statement.raw(true);
  return { statement, ...rowMaker(statement) };
}

function rowMaker(statement: BetterSqlite3.Statement): { toRow: (values: unknown[]) => unknown; width: number } {
  const columns = statement.columns();
  // Names are the query's own columns and aliases (code, not input); JSON.stringify quotes each as a key.
  const fields = columns.map((column, i) => `${JSON.stringify(column.name)}: values[${i}]`);
  return {
    toRow: new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown,
    width: columns.length,
  };
}

/** The rows of a direct statement as objects. */
function rowsOf(own: DirectStatement, parameters: unknown[]): unknown[] {
  const rows = own.statement.all(...parameters) as unknown[][];
  // A `select *` re-prepared by SQLite after a schema change may have other columns: the literal follows.
  if (rows.length > 0 && rows[0]!.length !== own.width) Object.assign(own, rowMaker(own.statement));
  return rows.map(own.toRow!);
}

/**
 * A hot query built and compiled once per database, then run with new arguments. Kysely
 * otherwise builds and compiles the query tree on every call, which costs more than a point
 * lookup itself. The query's shape must not depend on its arguments: it is built once with
 * placeholders, and each placeholder's position in the compiled parameters is remembered.
 * Writes work too: a statement that returns no rows answers [].
 *
 * On SQLite, outside any transaction, the statement runs directly on the connection: Kysely's
 * way there (a connection lock and several promise hops) costs more than the lookup. It is
 * synchronous, so nothing can interleave; inside a transaction (ours or anyone's on the one
 * connection) it waits for Kysely's lock like any other query and so never reads uncommitted rows,
 * except inside a transaction of ours (`holdingConnection`), which holds that lock itself.
 *
 * On PostgreSQL the statement is prepared by name (see pg-named.ts), and outside a transaction it
 * goes straight to the pool.
 *
 * Private to the store: the domain calls the named functions built on it.
 */
export function compiledOnce<A extends unknown[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  return async function run(db: Db | Trx, ...args: A): Promise<R[]> {
    return runCompiled<R>(db, compiledFor(db, build, args.length), args);
  };
}

/**
 * A query whose shape varies with a few of its arguments (how many terms, how many trees),
 * compiled once per shape as compiledOnce compiles its one: `shape` names the shape, and
 * `build` must make that same shape for every call naming it, from `args` alone (placeholders
 * when compiled). `args` is flat: a list argument contributes one element per item. The store
 * keeps the last SHAPES_KEPT shapes used; on PostgreSQL their texts are not prepared by name
 * (each connection would keep every shape it ever met).
 */
export async function runShaped<R>(
  db: Db | Trx,
  shape: string,
  build: (db: Db, args: unknown[]) => Compilable<R>,
  args: unknown[],
): Promise<R[]> {
  const state = storeStateOf(db);
  let entry = state?.shapes.get(shape);
  if (entry === undefined) {
    entry = compile(db, (db: Db, ...placeholders: unknown[]) => build(db, placeholders), args.length);
    if (state !== undefined) {
      if (state.shapes.size >= SHAPES_KEPT) state.shapes.delete(state.shapes.keys().next().value!);
      state.shapes.set(shape, entry);
    }
  }
  return runCompiled<R>(db, entry, args);
}

/** How many query shapes a store keeps compiled (runShaped): the oldest goes first. */
export const SHAPES_KEPT = 64;

async function runCompiled<R>(db: Db | Trx, entry: CompiledEntry, args: unknown[]): Promise<R[]> {
  const parameters = entry.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
  const direct = directHandle(db);
  if (direct !== undefined) {
    const own = (entry.direct ??= directStatement(direct, entry.sql)) as DirectStatement;
    if (own.toRow !== null) return rowsOf(own, parameters) as R[];
    own.statement.run(...parameters);
    return [];
  }
  const driver = driverOf(db);
  if (!db.isTransaction && driver !== undefined && 'postgres' in driver) {
    return driver.postgres.query<R>(entry.sql, parameters);
  }
  const result = await db.executeQuery<R>(CompiledQuery.raw(entry.sql, parameters));
  return result.rows;
}

/** The statement `build` makes, compiled once per store (kept in the store's state; every time for a bare Kysely). */
function compiledFor<A extends unknown[]>(
  db: Db | Trx,
  build: (db: Db, ...args: A) => Compilable<unknown>,
  arity: number,
): CompiledEntry {
  const state = storeStateOf(db);
  const known = state?.statements.get(build);
  if (known !== undefined) return known;
  const entry = compile(db, build, arity);
  state?.statements.set(build, entry);
  nameStatement(db, entry.sql);
  return entry;
}

/** The statement `build` makes with a placeholder for each of its `arity` arguments, and where each goes. */
function compile<A extends unknown[]>(
  db: Db | Trx,
  build: (db: Db, ...args: A) => Compilable<unknown>,
  arity: number,
): CompiledEntry {
  const placeholders = Array.from({ length: arity }, (_, i) => `${ARG}${i}`) as A;
  const compiled = build(db as Db, ...placeholders).compile();
  const slots = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(ARG) ? Number(p.slice(ARG.length)) : { value: p },
  );
  return { sql: compiled.sql, slots, direct: null };
}
