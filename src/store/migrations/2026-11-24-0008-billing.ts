import type { Kysely } from 'kysely';

/**
 * Billing (CONTRACT §14): the provider's customer kept on the user, the time of the last provider
 * event that set the plan (so an older event delivered late cannot roll a newer state back), and
 * every provider event id applied, whose primary key makes a concurrent redelivery apply nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('billing_customer_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('billing_event_at', 'text').execute();
  // One account per customer; NULLs (no purchase yet) do not collide on either database.
  await db.schema.createIndex('users_billing_customer').on('users').column('billing_customer_id').unique().execute();

  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    // The account the event touched; null when it named no account we know.
    .addColumn('user_id', 'text')
    // applied | ignored (with why), kept for an operator reading what billing did.
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('event_created_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_events').execute();
  await db.schema.dropIndex('users_billing_customer').execute();
  await db.schema.alterTable('users').dropColumn('billing_event_at').execute();
  await db.schema.alterTable('users').dropColumn('billing_customer_id').execute();
}
