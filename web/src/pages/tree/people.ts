import type { Member, Tree, User } from '../../api/types';

/** Who is who in a tree, in words. The API names people by id; the app knows its own user, and members by email. */
export interface People {
  /**
   * The signed-in user's name, a member's email, or "the owner" when the owner is someone else;
   * null (an author whose account was deleted) reads as a deleted account.
   */
  label(userId: string | null): string;
  /** The owner and the active members: the only people a task may be assigned to (CONTRACT §10). */
  assignable: { id: string; label: string }[];
  /** A membership's email, for history entries about members. */
  memberEmail(memberId: string): string | null;
}

export interface PeopleWords {
  owner: string;
  someone: string;
  deleted: string;
}

export function peopleOf(tree: Tree, members: readonly Member[], me: User, words: PeopleWords): People {
  const byUser = new Map<string, string>();
  for (const m of members) if (m.user_id !== null) byUser.set(m.user_id, m.email);
  const label = (userId: string | null): string => {
    if (userId === null) return words.deleted;
    if (userId === me.id) return me.name !== '' ? me.name : me.email;
    return byUser.get(userId) ?? (userId === tree.owner_id ? words.owner : words.someone);
  };
  const assignable = [
    tree.owner_id,
    ...members.filter((m) => m.status === 'active' && m.user_id !== null).map((m) => m.user_id as string),
  ];
  return {
    label,
    assignable: [...new Set(assignable)].map((id) => ({ id, label: label(id) })),
    memberEmail: (memberId) => members.find((m) => m.id === memberId)?.email ?? null,
  };
}
