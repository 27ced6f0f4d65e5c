import { PostgresAdapter, type Kysely } from 'kysely';

/** Migrations are frozen and never import application code; this is their one shared fact. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
