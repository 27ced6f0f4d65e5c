import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type pg from 'pg';
import { Kysely, Migrator, type LogEvent } from 'kysely';
import type { Database } from './schema.js';
import type { Db, DialectName, Trx } from './types.js';
import { migrations } from './migrations/index.js';
import { InlineLimits } from './inline-limits.js';
import { CachedStatements, loadSqlite } from './sqlite-driver.js';
import { holdingConnection } from './compiled.js';
import { PostgresStoreDialect, SqliteStoreDialect, StoreState } from './store-state.js';
import { NamedStatementPool } from './pg-named.js';
import { SQLITE_FILE_NAME } from './sqlite-files.js';
import { checkpointOffThread } from './sqlite-checkpoints.js';

export type { Db, DialectName, Trx } from './types.js';

export interface Store {
  db: Db;
  dialect: DialectName;
  /** PostgreSQL schema the store lives in, when not the default. */
  schema?: string | null;
  /** PostgreSQL only: the connection pool, whose counts the metrics report. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** Told the duration of every query that goes through Kysely (the metrics' query time). */
export type QueryObserver = (durationMs: number, failed: boolean) => void;

export interface StoreOptions {
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema?: string | null;
  /** PostgreSQL only: the longest one statement may run (default 30 s). */
  statementTimeoutMs?: number;
  /** Set only when metrics are on: Kysely times queries only when it has a logger. */
  onQuery?: QueryObserver;
}

function queryLog(onQuery: QueryObserver | undefined) {
  if (onQuery === undefined) return {};
  return { log: (event: LogEvent) => onQuery(event.queryDurationMillis, event.level === 'error') };
}

/** The settings every connection of the service to its SQLite file runs with (bench/batch-floor.ts uses them too). */
export function applySqliteSettings(sqlite: { pragma(source: string): unknown }): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A 64 MiB page cache keeps the indexes of a large account in memory; temp B-trees stay in RAM.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('temp_store = MEMORY');
}

function openSqlite(dataDir: string, onQuery?: QueryObserver): Store {
  mkdirSync(dataDir, { recursive: true });
  const SqliteDatabase = loadSqlite();
  const file = join(dataDir, SQLITE_FILE_NAME);
  const sqlite = new SqliteDatabase(file);
  applySqliteSettings(sqlite);
  // SQLite's lower() folds ASCII only; search compares short terms case-insensitively in every script.
  sqlite.function('casefold', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  // Limits are written into the text: SQLite prepares a statement with a bound one again at every run.
  const db = new Kysely<Database>({
    dialect: new SqliteStoreDialect({ database: new CachedStatements(sqlite) }, new StoreState({ sqlite })),
    plugins: [new InlineLimits()],
    ...queryLog(onQuery),
  });
  // The WAL's checkpoints (and their file syncs) run on a thread of their own, not in a commit.
  const stopCheckpoints = checkpointOffThread(sqlite, file);
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await stopCheckpoints();
      await db.destroy();
    },
  };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

async function openPostgres(
  url: string,
  schema: string | null,
  statementTimeoutMs: number,
  onQuery?: QueryObserver,
): Promise<Store> {
  // Imported here: a service on SQLite does not carry the PostgreSQL client in memory.
  const { default: pg } = await import('pg');
  // int8 (COUNT, SUM, sequences) arrives as text from pg; every value we keep fits a JS number.
  pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  if (schema !== null) {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A runaway statement (a bug, a pathological plan) is cancelled instead of holding one of the
    // ten connections until every tenant waits; the request answers 500 and the pool recovers.
    statement_timeout: statementTimeoutMs,
    // public stays on the path for extensions such as pg_trgm, which live there.
    ...(schema !== null ? { options: `-c search_path=${schema},public` } : {}),
  });
  // An idle connection that dies (a database restart, a cut network) is reported on the pool;
  // unheard, that event would end the process. The pool drops the connection and opens a new one
  // for the next query, and /readyz answers 503 while none can be opened.
  pool.on('error', () => {});
  const named = new NamedStatementPool(pool);
  const db = new Kysely<Database>({
    dialect: new PostgresStoreDialect({ pool: named }, new StoreState({ postgres: named })),
    ...queryLog(onQuery),
  });
  return { db, dialect: 'postgres', schema, pool, close: () => db.destroy() };
}

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.databaseUrl !== null
    ? openPostgres(
        options.databaseUrl,
        options.databaseSchema ?? null,
        options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
        options.onQuery,
      )
    : openSqlite(options.dataDir, options.onQuery);
}

/** Brings the schema up to date; safe to run on every start and from several processes. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    // Without it Kysely finds the migration tables of any schema and skips creating its own.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * A transaction of ours. The write runner (domain/write.ts) opens every write's through this;
 * statements compiled once run directly on SQLite's connection inside it (see holdingConnection).
 */
export function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => holdingConnection(trx, () => work(trx)));
}
