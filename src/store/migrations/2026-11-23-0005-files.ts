import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Attachments (one blob file per attachment, kept per owner) and speech jobs. Rows follow their
 * task through foreign keys; the blobs are removed by the domain once a delete commits.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const seq = (c: any) => (pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()); // eslint-disable-line @typescript-eslint/no-explicit-any
  await db.schema
    .createTable('attachments')
    .addColumn('seq', pg ? 'bigint' : 'integer', seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    /** JSON text: the metadata kinds that were removed. */
    .addColumn('metadata_removed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_task_seq').on('attachments').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('attachments_owner').on('attachments').column('owner_id').execute();

  await db.schema
    .createTable('speech_jobs')
    .addColumn('seq', pg ? 'bigint' : 'integer', seq)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('attachment_id', 'text', (c) => c.notNull().references('attachments.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('transcript', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    /** When a queued or retried job may run next; a running job's lease runs out at this time. */
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('speech_jobs_task_seq').on('speech_jobs').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('speech_jobs_due').on('speech_jobs').columns(['status', 'run_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('speech_jobs').execute();
  await db.schema.dropTable('attachments').execute();
}
