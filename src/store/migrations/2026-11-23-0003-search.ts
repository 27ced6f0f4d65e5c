import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Literal substring search over task title, text and notes. SQLite: an FTS5 index with the
 * trigram tokenizer (case-insensitive for every script), kept in step with `tasks` by triggers.
 * PostgreSQL: pg_trgm GIN indexes on the lower-cased columns, which serve LIKE '%term%'.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The extension is database-wide: serialize concurrent first migrations, and keep it in
    // public so dropping one schema never takes it away from the others.
    await sql`select pg_advisory_xact_lock(7420003)`.execute(db);
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    for (const column of ['title', 'text', 'notes']) {
      await sql`create index ${sql.id(`tasks_${column}_trgm`)} on tasks using gin (lower(${sql.ref(column)}) gin_trgm_ops)`.execute(
        db,
      );
    }
    return;
  }
  await sql`create virtual table tasks_fts using fts5(title, text, notes, content='tasks', content_rowid='seq', tokenize='trigram case_sensitive 0')`.execute(
    db,
  );
  await sql`create trigger tasks_fts_insert after insert on tasks begin
      insert into tasks_fts(rowid, title, text, notes) values (new.seq, new.title, new.text, new.notes);
    end`.execute(db);
  await sql`create trigger tasks_fts_delete after delete on tasks begin
      insert into tasks_fts(tasks_fts, rowid, title, text, notes) values ('delete', old.seq, old.title, old.text, old.notes);
    end`.execute(db);
  await sql`create trigger tasks_fts_update after update of title, text, notes on tasks begin
      insert into tasks_fts(tasks_fts, rowid, title, text, notes) values ('delete', old.seq, old.title, old.text, old.notes);
      insert into tasks_fts(rowid, title, text, notes) values (new.seq, new.title, new.text, new.notes);
    end`.execute(db);
  await sql`insert into tasks_fts(tasks_fts) values ('rebuild')`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const column of ['title', 'text', 'notes'])
      await sql`drop index ${sql.id(`tasks_${column}_trgm`)}`.execute(db);
    return;
  }
  for (const trigger of ['tasks_fts_insert', 'tasks_fts_delete', 'tasks_fts_update'])
    await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await sql`drop table tasks_fts`.execute(db);
}
