import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

const CASCADING = '"parent_id" text references "projects" ("id") on delete cascade';
const PLAIN = '"parent_id" text references "projects" ("id")';

/**
 * A project's parent no longer cascades its delete to the children (CONTRACT §19: deletes never
 * depend on database recursion limits). SQLite runs each cascade step as a nested trigger and
 * stops at 1,000 levels ("too many levels of trigger recursion"), so a tree of 1,001 nested
 * projects could not be deleted at all. The domain now deletes a project's whole subtree in one
 * statement, and a tree's projects go with the tree in one step (their `tree_id` still
 * cascades); the foreign key still refuses a parent removed without its children.
 * SQLite cannot change a foreign key in place: the table is rebuilt from its own stored
 * definition (the documented twelve steps), so columns added by other migrations stay.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await setParentKey(db, false);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await setParentKey(db, true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function setParentKey(db: Kysely<any>, cascade: boolean): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table projects drop constraint projects_parent_id_fkey,
      add constraint projects_parent_id_fkey foreign key (parent_id) references projects (id) ${sql.raw(cascade ? 'on delete cascade' : '')}`.execute(
      db,
    );
    return;
  }
  await rebuildSqliteProjects(db, (create) =>
    cascade ? create.replace(PLAIN, CASCADING) : create.replace(CASCADING, PLAIN),
  );
}

/**
 * SQLite's way to change a constraint: with foreign keys off (a dropped table would otherwise
 * take its referencing tasks along), copy the rows into a table made from the rewritten
 * definition, swap the names, recreate indexes and triggers, keep the AUTOINCREMENT counter (the
 * `seq` cursors use), and check every key before committing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuildSqliteProjects(db: Kysely<any>, rewrite: (create: string) => string): Promise<void> {
  const keysWereOn = (await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys === 1;
  // Only outside a transaction does this pragma take effect; SQLite migrations run outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const schema = await sql<{
        type: string;
        sql: string;
      }>`select type, sql from sqlite_schema where tbl_name = 'projects' and sql is not null`.execute(db);
      const create = schema.rows.find((r) => r.type === 'table')!.sql;
      const rewritten = rewrite(create);
      if (rewritten === create) throw new Error('projects: the parent_id foreign key is not as this migration expects');
      const counter = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'projects'`.execute(db);
      await sql.raw(rewritten.replace(/^CREATE TABLE "projects"/, 'CREATE TABLE "projects_rebuilt"')).execute(db);
      await sql`insert into projects_rebuilt select * from projects`.execute(db);
      await sql`drop table projects`.execute(db);
      await sql`alter table projects_rebuilt rename to projects`.execute(db);
      for (const { sql: statement } of schema.rows.filter((r) => r.type !== 'table'))
        await sql.raw(statement).execute(db);
      await sql`delete from sqlite_sequence where name = 'projects'`.execute(db);
      const seq = counter.rows[0]?.seq;
      if (seq !== undefined) await sql`insert into sqlite_sequence (name, seq) values ('projects', ${seq})`.execute(db);
      for (const table of ['projects', 'tasks']) {
        const broken = await sql`select * from pragma_foreign_key_check(${table})`.execute(db);
        if (broken.rows.length > 0)
          throw new Error(`${table}: ${broken.rows.length} rows break a foreign key after the rebuild`);
      }
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    if (keysWereOn) await sql`pragma foreign_keys = on`.execute(db);
  }
}
