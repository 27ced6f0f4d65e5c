import type { Kysely } from 'kysely';

/**
 * Invitations bind only to a proven email (CONTRACT §19). `users.email_verified_at` is when the
 * account proved it reads its address (null: not yet; every account made before this migration
 * starts unverified, since nothing proved their addresses). `email_verifications` holds the
 * mailed one-time tokens, hashed, like `password_resets`. `members.invite_token_hash` is the
 * hash of the invitation's own one-time link, null once it is used or the invitation ends.
 *
 * Pending invitations were bound by email to whichever account registered it, proven or not:
 * they are unbound here and bind again when the account verifies its email (or are taken with
 * a fresh link, after the owner re-invites). Active memberships stay as they are.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The address the mail went to: the token proves that one and no other.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('email_verifications_owner').on('email_verifications').column('owner_id').execute();

  await db.schema.alterTable('members').addColumn('invite_token_hash', 'text').execute();
  await db.updateTable('members').set({ user_id: null }).where('status', '=', 'pending').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('invite_token_hash').execute();
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
