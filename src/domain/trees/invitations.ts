import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Db, Trx } from '../../store/db.js';
import { requireRead, requireWrite } from '../actor.js';
import { memberStatus, presentMember, setStatus, type Member, type MemberRow } from './members.js';
import { sha256 } from '../crypto.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { inScope } from '../access.js';
import { write } from '../write.js';
import type { Static } from '@sinclair/typebox';
import type { Invitation as InvitationSchema } from '../schemas/teams.js';

/**
 * The invitee's side of sharing (CONTRACT §10, §19). An invitation reaches an account in one of
 * two ways only: bound to it because the account verified the invited email (`bindInvitations`,
 * the one place that binds by email), or through the invitation's own one-time link. So a
 * pending row's `user_id` always names an account that proved the address.
 */

export type Invitation = Static<typeof InvitationSchema>;

/** The signed-in user's pending invitations, oldest first. */
export async function listInvitations(deps: Deps, actor: Actor): Promise<Invitation[]> {
  requireRead(actor);
  const rows = await deps.db
    .selectFrom('members as m')
    .innerJoin('trees as t', 't.id', 'm.tree_id')
    .innerJoin('users as u', 'u.id', 'm.invited_by')
    .selectAll('m')
    .select(['t.name as tree_name', 'u.name as inviter_name', 'u.email as inviter_email'])
    .where('m.user_id', '=', actor.user.id)
    .where('m.status', '=', 'pending')
    .orderBy('m.seq')
    .execute();
  return rows
    .filter((r) => memberStatus(r) === 'pending' && inScope(actor, r.tree_id))
    .map(({ tree_name, inviter_name, inviter_email, ...row }) => ({
      ...presentMember(row, actor.user.name),
      tree_name,
      invited_by_name: inviter_name !== '' ? inviter_name : inviter_email,
    }));
}

/** A pending invitation bound to the actor (by their verified email), or not_found: an unknown id and someone else's read alike. */
async function boundInvitation(db: Db | Trx, actor: Actor, id: string): Promise<MemberRow> {
  if (id.length > 160) throw invalid('/id', 'must be at most 160 characters');
  const row = await db
    .selectFrom('members')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', actor.user.id)
    .executeTakeFirst();
  if (row === undefined || memberStatus(row) !== 'pending' || !inScope(actor, row.tree_id))
    throw notFound('invitation');
  return row;
}

/**
 * Accepts an invitation bound to the actor or, with `token`, the one its link names, for whoever
 * is signed in: the membership becomes theirs. The link works once; a wrong, used or dead one is
 * not_found, as is any invitation the actor has neither way to.
 * @throws not_found, conflict (the owner, or someone with another membership of the tree)
 */
export async function acceptInvitation(deps: Deps, actor: Actor, id: string, token?: string): Promise<Member> {
  requireWrite(actor);
  return write(deps, actor, async (w) => {
    const { trx } = w;
    if (token === undefined) return setStatus(w, await boundInvitation(trx, actor, id), 'active');
    const row = await spendInviteLink(trx, id, token);
    // Outside a scoped credential's trees: not found, and the link stays unspent (the write rolls back).
    if (!inScope(actor, row.tree_id)) throw notFound('invitation');
    if (row.user_id !== actor.user.id) {
      // Two links of one tree taken by one person at once: the second waits, then sees the first.
      await w.lockTrees([row.tree_id]);
      await requireNoOtherMembership(trx, actor, row);
    }
    return setStatus(w, row, 'active', { userId: actor.user.id, email: actor.user.email });
  });
}

/**
 * The pending invitation a link names, its token spent by one conditional update: of two racing
 * acceptances only one finds it (the other's update matches nothing once the first commits).
 * @throws not_found
 */
async function spendInviteLink(trx: Trx, id: string, token: string): Promise<MemberRow> {
  if (id.length > 160) throw invalid('/id', 'must be at most 160 characters');
  const row = await trx
    .updateTable('members')
    .set({ invite_token_hash: null })
    .where('id', '=', id)
    .where('invite_token_hash', '=', sha256(token))
    .returningAll()
    .executeTakeFirst();
  if (row === undefined || memberStatus(row) !== 'pending') throw notFound('invitation');
  return row;
}

/**
 * One membership per person and tree, which access resolution relies on: the owner cannot join
 * their own tree, and someone with another membership of it (pending, active or ended) keeps that one.
 * @throws conflict
 */
async function requireNoOtherMembership(trx: Trx, actor: Actor, row: MemberRow): Promise<void> {
  if (row.owner_id === actor.user.id)
    throw new DomainError('conflict', 'You own this tree already.', [{ reason: 'own_tree' }]);
  const other = await trx
    .selectFrom('members')
    .select('id')
    .where('tree_id', '=', row.tree_id)
    .where('id', '<>', row.id)
    .where((eb) => eb.or([eb('user_id', '=', actor.user.id), eb('email', '=', actor.user.email)]))
    .executeTakeFirst();
  if (other !== undefined) {
    throw new DomainError(
      'conflict',
      'You already have a membership of this tree; ask its owner to invite your own address again.',
      [{ reason: 'already_member' }],
    );
  }
}

/** @throws not_found */
export async function declineInvitation(deps: Deps, actor: Actor, id: string): Promise<Member> {
  requireWrite(actor);
  return write(deps, actor, async (w) => setStatus(w, await boundInvitation(w.trx, actor, id), 'revoked'));
}

/**
 * Invitations sent to an email belong to the account that verified it, from then on. Called
 * only once the account has proved the address (a verification link, a completed reset, the
 * operator); never at registration.
 */
export async function bindInvitations(db: Db | Trx, userId: string, email: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ user_id: userId })
    .where('email', '=', email)
    .where('user_id', 'is', null)
    .execute();
}
