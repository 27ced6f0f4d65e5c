import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Trees, projects, tasks and their history. Every table carries `owner_id` (the tree owner), the
 * tenant key and the natural distribution key. `seq` is the internal creation order that lists
 * and cursors use; `id` is the public, prefixed id.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // SQLite: seq is the rowid itself (fastest lookups, FTS5 content_rowid); PostgreSQL: an identity column.
  const seqType = pg ? 'bigint' : 'integer';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seq = (c: any) => (pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('trees')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('style', 'text', (c) => c.notNull())
    // Kept in the write's transaction, so plan limits need no COUNT over 50,000 rows.
    .addColumn('project_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trees_owner_seq').on('trees').columns(['owner_id', 'seq']).execute();
  await db.schema.createIndex('trees_owner_updated').on('trees').columns(['owner_id', 'updated_at']).execute();

  await db.schema
    .createTable('projects')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_owner_seq').on('projects').columns(['owner_id', 'seq']).execute();
  await db.schema.createIndex('projects_tree_seq').on('projects').columns(['tree_id', 'seq']).execute();
  await db.schema.createIndex('projects_parent').on('projects').column('parent_id').execute();
  // "Position after the last sibling" reads max(position) among siblings.
  await db.schema
    .createIndex('projects_siblings')
    .on('projects')
    .columns(['tree_id', 'parent_id', 'position'])
    .execute();
  await db.schema.createIndex('projects_owner_updated').on('projects').columns(['owner_id', 'updated_at']).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('deadline', 'text')
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_owner_seq').on('tasks').columns(['owner_id', 'seq']).execute();
  await db.schema.createIndex('tasks_tree_seq').on('tasks').columns(['tree_id', 'seq']).execute();
  await db.schema.createIndex('tasks_project_seq').on('tasks').columns(['project_id', 'seq']).execute();
  await db.schema.createIndex('tasks_siblings').on('tasks').columns(['tree_id', 'project_id', 'position']).execute();
  await db.schema.createIndex('tasks_owner_updated').on('tasks').columns(['owner_id', 'updated_at']).execute();

  await db.schema
    .createTable('history')
    .addColumn('seq', seqType, seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('trees.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // JSON text: {field: {from, to}}
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('history_tree_seq').on('history').columns(['tree_id', 'seq']).execute();
  await db.schema.createIndex('history_owner_at').on('history').columns(['owner_id', 'at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['history', 'tasks', 'projects', 'trees']) await db.schema.dropTable(table).execute();
}
