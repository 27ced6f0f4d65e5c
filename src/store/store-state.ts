import { PostgresAdapter, PostgresDialect, SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely';
import type { PostgresDialectConfig, SqliteDialectConfig } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db, Trx } from './types.js';
import type { NamedStatementPool } from './pg-named.js';

/** What runs a store's statements below Kysely: its one SQLite handle, or its PostgreSQL pool. */
export type Driver = { sqlite: BetterSqlite3.Database } | { postgres: NamedStatementPool };

/** A statement compiled once for this store (see compiledOnce): its text, where each argument goes, its handle. */
export interface CompiledEntry {
  sql: string;
  slots: (number | { value: unknown })[];
  direct: unknown;
}

/** What a group commit offers (store/group-commit.ts), named here so this leaf imports nothing of ours. */
export interface SharedCommits {
  run<T>(key: string, work: (trx: Trx) => Promise<T>, alone?: (db: Db | Trx) => Promise<T | undefined>): Promise<T>;
}

/**
 * Everything one open store keeps for itself below Kysely. It lives on the store's dialect adapter,
 * which Kysely makes once per database and shares with every transaction of it, so any `db` or
 * `trx` leads to its own store's state and nothing is kept at module level: two stores open in one
 * process (SQLite and PostgreSQL in a test) never see each other's statements or queues.
 */
export class StoreState {
  /** Statements compiled once, by the function that builds each (compiledOnce). */
  readonly statements = new Map<object, CompiledEntry>();
  /** Statements compiled once per shape (runShaped), oldest first. */
  readonly shapes = new Map<string, CompiledEntry>();
  /**
   * SQLite: the transaction of ours now open on the one connection, if any (see holdingConnection
   * in compiled.ts). Kysely lets one transaction at a time hold the connection, so one field is enough.
   */
  holder: Trx | null = null;
  /**
   * The group commit of each Kysely instance over this store (group-commit.ts), made on first use:
   * in production one, `deps.db`; a test's instance with a plugin of its own gets its own.
   */
  readonly sharedCommits = new WeakMap<Db, SharedCommits>();

  constructor(readonly driver: Driver) {}
}

interface WithState {
  readonly storeState: StoreState;
}

class SqliteStoreAdapter extends SqliteAdapter implements WithState {
  constructor(readonly storeState: StoreState) {
    super();
  }
}

class PostgresStoreAdapter extends PostgresAdapter implements WithState {
  constructor(readonly storeState: StoreState) {
    super();
  }
}

/** Kysely's SQLite dialect whose adapter carries the store's state. */
export class SqliteStoreDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly state: StoreState,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    return new SqliteStoreAdapter(this.state);
  }
}

/** Kysely's PostgreSQL dialect whose adapter carries the store's state. */
export class PostgresStoreDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly state: StoreState,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    return new PostgresStoreAdapter(this.state);
  }
}

/** The state of the store `db` belongs to; undefined for a Kysely instance not opened by openStore (tests). */
export function storeStateOf(db: Db | Trx): StoreState | undefined {
  const adapter = db.getExecutor().adapter as Partial<WithState>;
  return adapter.storeState;
}
