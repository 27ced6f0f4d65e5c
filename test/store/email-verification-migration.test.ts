import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { databases, type DatabaseKind } from '../helpers/app.js';
import { migratorOf, useStore } from '../helpers/store.js';

const BEFORE = '2026-11-27-0012-task-place-plan';
const AT = '2026-01-01T00:00:00.000Z';

/**
 * Migration 0013 (CONTRACT §19): nothing proved the addresses of accounts made before it, so they
 * start unverified and pending invitations bound to them by email are unbound until they verify;
 * memberships already active stay.
 */
describe.each(databases)('email verification arriving on an existing database (%s)', (kind: DatabaseKind) => {
  const current = useStore(kind, { migrate: false });

  it('leaves every account unverified and unbinds pending invitations only, and migrates back', async () => {
    const store = current();
    expect((await migratorOf(store).migrateTo(BEFORE)).error).toBeUndefined();
    for (const id of ['usr_owner', 'usr_early', 'usr_member']) {
      await sql`insert into users (id, owner_id, email, password_hash, name, language, timezone, plan, created_at, updated_at)
        values (${id}, ${id}, ${`${id}@example.test`}, 'x', '', 'en', 'UTC', 'grove', ${AT}, ${AT})`.execute(store.db);
    }
    await sql`insert into trees (id, owner_id, name, style, created_at, updated_at) values ('tre_1', 'usr_owner', 'Orchard', 'tidy-fan', ${AT}, ${AT})`.execute(
      store.db,
    );
    const member = (id: string, user: string, status: string) =>
      sql`insert into members (id, owner_id, tree_id, user_id, email, role, status, expires_at, invited_by, created_at, updated_at)
      values (${id}, 'usr_owner', 'tre_1', ${user}, ${`${user}@example.test`}, 'viewer', ${status}, null, 'usr_owner', ${AT}, ${AT})`.execute(
        store.db,
      );
    await member('mbr_pending', 'usr_early', 'pending');
    await member('mbr_active', 'usr_member', 'active');

    expect((await migratorOf(store).migrateToLatest()).error).toBeUndefined();
    const users = await store.db.selectFrom('users').select(['id', 'email_verified_at']).orderBy('id').execute();
    expect(users.map((u) => u.email_verified_at)).toEqual([null, null, null]);
    const members = await store.db
      .selectFrom('members')
      .select(['id', 'user_id', 'status', 'invite_token_hash'])
      .orderBy('id')
      .execute();
    expect(members).toEqual([
      { id: 'mbr_active', user_id: 'usr_member', status: 'active', invite_token_hash: null },
      { id: 'mbr_pending', user_id: null, status: 'pending', invite_token_hash: null },
    ]);

    expect((await migratorOf(store).migrateTo(BEFORE)).error).toBeUndefined();
    expect((await migratorOf(store).migrateToLatest()).error).toBeUndefined();
  });
});
