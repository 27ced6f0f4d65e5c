import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Db, Trx } from '../../store/db.js';
import { requireRead, requireWrite } from '../actor.js';
import { memberStatus, presentMember, setStatus, type Member } from './members.js';
import { invalid, notFound } from '../errors.js';
import { inTransaction } from '../../store/db.js';

/** An invitation as the invitee sees it: the membership and the name of the tree. */
export interface Invitation extends Member {
  tree_name: string;
}

/** The signed-in user's pending invitations, oldest first. */
export async function listInvitations(deps: Deps, actor: Actor): Promise<Invitation[]> {
  requireRead(actor);
  const rows = await deps.db
    .selectFrom('members as m')
    .innerJoin('trees as t', 't.id', 'm.tree_id')
    .selectAll('m')
    .select('t.name as tree_name')
    .where('m.user_id', '=', actor.user.id)
    .where('m.status', '=', 'pending')
    .orderBy('m.seq')
    .execute();
  return rows.filter((r) => memberStatus(r) === 'pending').map(({ tree_name, ...row }) => ({ ...presentMember(row), tree_name }));
}

/** A pending invitation addressed to the actor; anything else is not theirs to answer. @throws not_found */
async function ownInvitation(db: Db | Trx, actor: Actor, id: string) {
  if (id.length > 160) throw invalid('/id', 'must be at most 160 characters');
  const row = await db.selectFrom('members').selectAll().where('id', '=', id).where('user_id', '=', actor.user.id).executeTakeFirst();
  if (row === undefined || memberStatus(row) !== 'pending') throw notFound('invitation');
  return row;
}

/** @throws not_found */
export async function acceptInvitation(deps: Deps, actor: Actor, id: string): Promise<Member> {
  requireWrite(actor);
  return inTransaction(deps.db, async (trx) => setStatus(trx, actor, await ownInvitation(trx, actor, id), 'active'));
}

/** @throws not_found */
export async function declineInvitation(deps: Deps, actor: Actor, id: string): Promise<Member> {
  requireWrite(actor);
  return inTransaction(deps.db, async (trx) => setStatus(trx, actor, await ownInvitation(trx, actor, id), 'revoked'));
}

/** Invitations sent to an email before it had an account belong to the account registered with it. */
export async function bindInvitations(db: Db | Trx, userId: string, email: string): Promise<void> {
  await db.updateTable('members').set({ user_id: userId }).where('email', '=', email).where('user_id', 'is', null).execute();
}
