import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

const TABLES = ['comments', 'messages'] as const;
const REQUIRED = '"author_id" text not null';
const OPTIONAL = '"author_id" text';

/**
 * Comments and messages outlive their author's account (CONTRACT §18, "Account"): when a person
 * deletes their account, what they wrote on trees of others stays, with `author_id` null. Both
 * columns were NOT NULL. PostgreSQL drops the constraint in place; SQLite cannot, so each table is
 * rebuilt from its own stored definition (as migration 0016 did for projects): rows, `seq`
 * values, the AUTOINCREMENT counter, indexes and triggers all kept.
 * Going down, a comment or message without an author gets the empty id, which names nobody.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    if (isPostgres(db)) await sql`alter table ${sql.table(table)} alter column author_id drop not null`.execute(db);
    else await rebuildSqlite(db, table, (create) => create.replace(REQUIRED, OPTIONAL));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`update ${sql.table(table)} set author_id = '' where author_id is null`.execute(db);
    if (isPostgres(db)) await sql`alter table ${sql.table(table)} alter column author_id set not null`.execute(db);
    else await rebuildSqlite(db, table, (create) => create.replace(OPTIONAL + ',', REQUIRED + ','));
  }
}

/**
 * SQLite's way to change a column constraint: with foreign keys off, copy the rows into a table
 * made from the rewritten definition, swap the names, recreate indexes and triggers, keep the
 * AUTOINCREMENT counter (the `seq` cursors use), and check every key before committing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuildSqlite(db: Kysely<any>, table: string, rewrite: (create: string) => string): Promise<void> {
  const keysWereOn = (await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys === 1;
  // Only outside a transaction does this pragma take effect; SQLite migrations run outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const schema = await sql<{
        type: string;
        sql: string;
      }>`select type, sql from sqlite_schema where tbl_name = ${table} and sql is not null`.execute(db);
      const create = schema.rows.find((r) => r.type === 'table')!.sql;
      const rewritten = rewrite(create);
      if (rewritten === create) throw new Error(`${table}: the author_id column is not as this migration expects`);
      const counter = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db);
      const rebuilt = `${table}_rebuilt`;
      await sql.raw(rewritten.replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${rebuilt}"`)).execute(db);
      await sql`insert into ${sql.table(rebuilt)} select * from ${sql.table(table)}`.execute(db);
      await sql`drop table ${sql.table(table)}`.execute(db);
      await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(db);
      for (const { sql: statement } of schema.rows.filter((r) => r.type !== 'table'))
        await sql.raw(statement).execute(db);
      await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
      const seq = counter.rows[0]?.seq;
      if (seq !== undefined) await sql`insert into sqlite_sequence (name, seq) values (${table}, ${seq})`.execute(db);
      const broken = await sql`select * from pragma_foreign_key_check(${table})`.execute(db);
      if (broken.rows.length > 0)
        throw new Error(`${table}: ${broken.rows.length} rows break a foreign key after the rebuild`);
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    if (keysWereOn) await sql`pragma foreign_keys = on`.execute(db);
  }
}
