import type { Selectable } from 'kysely';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Db, Trx } from '../../store/db.js';
import type { MemberTable } from '../../store/schema.js';
import { requireRead, requireWrite } from '../actor.js';
import { inScope, requireTreeOwner, treeAccess, type TreeAccess } from '../access.js';
import { planLimits } from '../plans.js';
import { type Changes } from './history.js';
import { checkEnum, normalizeEmail } from '../validate.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { isEmailVerified } from '../accounts/accounts.js';
import { inviteUrl, mailInvitation, newInviteToken } from './invite-links.js';
import { write, type Write } from '../write.js';
import type { Static } from '@sinclair/typebox';
import { memberRoles, type Member as MemberSchema } from '../schemas/teams.js';

export type MemberRow = Selectable<MemberTable>;
export { memberRoles };
export type MemberRole = (typeof memberRoles)[number];
export type MemberStatus = 'pending' | 'active' | 'revoked' | 'expired';

export type Member = Static<typeof MemberSchema>;

/** `expired` is never stored: a pending or active membership whose `expires_at` has passed reads so. */
export function memberStatus(row: Pick<MemberRow, 'status' | 'expires_at'>, now = new Date()): MemberStatus {
  if (row.status !== 'revoked' && row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime())
    return 'expired';
  return row.status as MemberStatus;
}

/** A membership as the API shows it; `name` is the member account's profile name, null while no account is linked. */
export function presentMember(row: MemberRow, name: string | null): Member {
  return {
    id: row.id,
    tree_id: row.tree_id,
    user_id: row.user_id,
    email: row.email,
    name: row.user_id === null ? null : name,
    role: row.role as MemberRole,
    status: memberStatus(row),
    expires_at: row.expires_at,
    invited_by: row.invited_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** One membership presented, its account's name looked up (every path that shows one membership comes here). */
async function presentMemberRow(db: Db | Trx, row: MemberRow): Promise<Member> {
  const account =
    row.user_id === null
      ? undefined
      : await db.selectFrom('users').select('name').where('id', '=', row.user_id).executeTakeFirst();
  return presentMember(row, account?.name ?? null);
}

export interface InviteInput {
  email: string;
  role: string;
  expires_at?: string | null;
}

/** A new invitation and its one-time link, shown to the owner this once (CONTRACT §19). */
export interface Invited {
  member: Member;
  invite_url: string;
}

export interface MemberPatch {
  role?: string;
  expires_at?: string | null;
}

/** An ISO 8601 instant with a zone, stored in UTC with milliseconds; any time, past ones included (they read as expired). */
function checkExpiry(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!/(Z|[+-]\d\d:\d\d)$/i.test(value) || Number.isNaN(Date.parse(value)))
    throw invalid('/expires_at', 'must be an ISO 8601 date-time with a time zone');
  return new Date(value).toISOString();
}

/** Sharing needs the owner's effective Grove. @throws plan_limit_reached */
function requireSharing(access: TreeAccess): void {
  if (!planLimits[access.ownerPlan].sharing) {
    throw new DomainError('plan_limit_reached', 'Sharing trees needs the Grove plan.', [
      { limit: 'sharing', value: false },
    ]);
  }
}

async function memberHistory(
  w: Write,
  row: MemberRow,
  action: 'created' | 'updated' | 'deleted',
  changes: Changes,
): Promise<void> {
  await w.record({ ownerId: row.owner_id, treeId: row.tree_id, entity: 'member', entityId: row.id, action, changes });
}

/**
 * Invites an email to the tree as viewer or editor (owner only, owner on Grove). An account that
 * has verified this email is bound at once; otherwise the invitation binds when an account with
 * it verifies it (CONTRACT §19): registering an address proves nothing. Either way the answer
 * carries the invitation's one-time link, which whoever is signed in may accept with; it is
 * mailed to the address too when mail is configured. A revoked or expired membership is revived
 * as a new invitation with a new link.
 * @throws not_found, forbidden, plan_limit_reached, validation_failed, conflict
 */
export async function inviteMember(
  deps: Deps,
  actor: Actor,
  treeId: string,
  input: InviteInput,
  onMailError: (err: unknown) => void = () => {},
): Promise<Invited> {
  requireWrite(actor);
  const email = normalizeEmail('/email', input.email);
  checkEnum('/role', input.role, memberRoles);
  const expiresAt = checkExpiry(input.expires_at) ?? null;
  const link = newInviteToken();
  const { member, treeName } = await write(deps, actor, async (w) => {
    const { trx } = w;
    const access = await treeAccess(trx, actor, treeId);
    requireTreeOwner(access);
    requireSharing(access);
    if (email === actor.user.email)
      throw new DomainError('conflict', 'You own this tree already.', [
        { path: '/email', message: 'is the owner', reason: 'own_tree' },
      ]);
    const invitee = await trx
      .selectFrom('users')
      .select(['id', 'email_verified_at'])
      .where('email', '=', email)
      .executeTakeFirst();
    const boundTo = invitee !== undefined && isEmailVerified(invitee) ? invitee.id : null;
    const existing = await trx
      .selectFrom('members')
      .selectAll()
      .where('tree_id', '=', treeId)
      .where('email', '=', email)
      .executeTakeFirst();
    const { now } = w;
    if (existing !== undefined) {
      const status = memberStatus(existing);
      if (status === 'active' || status === 'pending') {
        throw new DomainError('conflict', `This email is already ${status === 'active' ? 'a member' : 'invited'}.`, [
          {
            path: '/email',
            message: `is ${status}`,
            reason: status === 'active' ? 'already_member' : 'already_invited',
          },
        ]);
      }
      const revived = await trx
        .updateTable('members')
        .set({
          user_id: boundTo,
          role: input.role,
          status: 'pending',
          expires_at: expiresAt,
          invited_by: actor.user.id,
          invite_token_hash: link.hash,
          updated_at: now,
        })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await memberHistory(w, revived, 'created', {
        role: { from: existing.role, to: revived.role },
        status: { from: status, to: 'pending' },
      });
      return { member: await presentMemberRow(trx, revived), treeName: access.tree.name };
    }
    const row: MemberRow = {
      seq: 0,
      id: newId('mbr'),
      owner_id: access.ownerId,
      tree_id: treeId,
      user_id: boundTo,
      email,
      role: input.role,
      status: 'pending',
      expires_at: expiresAt,
      invited_by: actor.user.id,
      invite_token_hash: link.hash,
      created_at: now,
      updated_at: now,
    };
    const { seq: _seq, ...values } = row;
    const inserted = await trx.insertInto('members').values(values).returningAll().executeTakeFirstOrThrow();
    await memberHistory(w, inserted, 'created', {
      email: { from: null, to: email },
      role: { from: null, to: input.role },
    });
    return { member: await presentMemberRow(trx, inserted), treeName: access.tree.name };
  });
  const url = inviteUrl(deps.config.publicUrl, member.id, link.token);
  const inviter = actor.user.name !== '' ? actor.user.name : actor.user.email;
  mailInvitation(deps, { to: email, treeName, inviter, url }, onMailError);
  return { member, invite_url: url };
}

/** A tree's members, and how to name its owner to them. */
export interface MemberListing {
  items: Member[];
  /** The tree owner's name, or their email when they gave none (as an invitation names its sender). */
  owner_name: string;
}

/** Everyone invited to a visible tree, in invitation order, each with their account's name. @throws not_found */
export async function listMembers(deps: Deps, actor: Actor, treeId: string): Promise<MemberListing> {
  requireRead(actor);
  const access = await treeAccess(deps.db, actor, treeId);
  const [rows, owner] = await Promise.all([
    deps.db
      .selectFrom('members as m')
      .leftJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select('u.name as account_name')
      .where('m.tree_id', '=', treeId)
      .where('m.owner_id', '=', access.ownerId)
      .orderBy('m.seq')
      .execute(),
    deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', access.ownerId).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(({ account_name, ...row }) => presentMember(row, account_name)),
    owner_name: owner.name !== '' ? owner.name : owner.email,
  };
}

/** A membership, with the actor's access to its tree. @throws not_found */
async function memberAccess(
  db: Db | Trx,
  actor: Actor,
  memberId: string,
): Promise<{ row: MemberRow; access: TreeAccess | null }> {
  if (memberId.length > 160) throw invalid('/id', 'must be at most 160 characters');
  const row = await db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirst();
  // A tree outside a scoped credential's trees is foreign, memberships in it too (CONTRACT §16.1).
  if (row === undefined || !inScope(actor, row.tree_id)) throw notFound('member');
  const access = await treeAccess(db, actor, row.tree_id).catch(() => null);
  // A member may always see their own membership (to leave it); anyone else needs the tree.
  if (access === null && row.user_id !== actor.user.id) throw notFound('member');
  return { row, access };
}

/** Changes a member's role or expiry (owner only). @throws not_found, forbidden, validation_failed */
export async function updateMember(deps: Deps, actor: Actor, memberId: string, patch: MemberPatch): Promise<Member> {
  requireWrite(actor);
  if (patch.role !== undefined) checkEnum('/role', patch.role, memberRoles);
  const expiresAt = checkExpiry(patch.expires_at);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const { row, access } = await memberAccess(trx, actor, memberId);
    if (access === null) throw new DomainError('forbidden', 'Only the tree owner can change a membership.');
    requireTreeOwner(access);
    const changes: Changes = {};
    if (patch.role !== undefined && patch.role !== row.role) changes.role = { from: row.role, to: patch.role };
    if (expiresAt !== undefined && expiresAt !== row.expires_at)
      changes.expires_at = { from: row.expires_at, to: expiresAt };
    if (Object.keys(changes).length === 0) return presentMemberRow(trx, row);
    const { now } = w;
    const updated = await trx
      .updateTable('members')
      .set({
        ...(patch.role !== undefined ? { role: patch.role } : {}),
        ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        updated_at: now,
      })
      .where('id', '=', memberId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await memberHistory(w, updated, 'updated', changes);
    return presentMemberRow(trx, updated);
  });
}

/** Ends a membership: the owner revokes it, or the member leaves. @throws not_found, forbidden */
export async function removeMember(deps: Deps, actor: Actor, memberId: string): Promise<Member> {
  requireWrite(actor);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    const { row, access } = await memberAccess(trx, actor, memberId);
    if (row.user_id !== actor.user.id) {
      if (access === null) throw notFound('member');
      requireTreeOwner(access);
    }
    return setStatus(w, row, 'revoked');
  });
}

/** Who takes an invitation by its link: the membership becomes theirs (their id and email). */
export interface Claim {
  userId: string;
  email: string;
}

/**
 * Activates or ends a membership. Either way its invitation link dies: a link works once, and
 * never for an invitation that was declined or revoked.
 */
export async function setStatus(
  w: Write,
  row: MemberRow,
  status: 'active' | 'revoked',
  claim?: Claim,
): Promise<Member> {
  const before = memberStatus(row);
  if (before === status) return presentMemberRow(w.trx, row);
  const { trx, now } = w;
  const changes: Changes = { status: { from: before, to: status } };
  if (claim !== undefined && claim.email !== row.email) changes.email = { from: row.email, to: claim.email };
  const updated = await trx
    .updateTable('members')
    .set({
      status,
      invite_token_hash: null,
      updated_at: now,
      ...(claim !== undefined ? { user_id: claim.userId, email: claim.email } : {}),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await memberHistory(w, updated, status === 'revoked' ? 'deleted' : 'updated', changes);
  return presentMemberRow(trx, updated);
}
