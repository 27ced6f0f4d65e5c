import type { Member, Tree, User } from '../../api/types';

/** How a member is named: their account's name, or the invited email when they gave none or have no account yet. */
export function memberLabel(member: Pick<Member, 'name' | 'email'>): string {
  return member.name !== null && member.name !== '' ? member.name : member.email;
}

/**
 * Who is who in a tree, in words. The API names people by id; the app knows its own user, members
 * by name (or email), and the owner by the name the members list gives.
 */
export interface People {
  /**
   * The signed-in user's name, a member's name (or email), the owner's name (or "the owner" when
   * the members list could not be read);
   * null (an author whose account was deleted) reads as a deleted account.
   */
  label(userId: string | null): string;
  /** The owner and the active members: the only people a task may be assigned to (CONTRACT §10). */
  assignable: { id: string; label: string }[];
  /** A membership's name (or email), for history entries about members. */
  memberLabel(memberId: string): string | null;
}

export interface PeopleWords {
  owner: string;
  someone: string;
  deleted: string;
}

/** A tree's members as the API lists them, with the owner's name; null owner_name when the list could not be read. */
export interface Team {
  items: readonly Member[];
  owner_name: string | null;
}

export function peopleOf(tree: Tree, team: Team, me: User, words: PeopleWords): People {
  const members = team.items;
  const byUser = new Map<string, string>();
  for (const m of members) if (m.user_id !== null) byUser.set(m.user_id, memberLabel(m));
  const label = (userId: string | null): string => {
    if (userId === null) return words.deleted;
    if (userId === me.id) return me.name !== '' ? me.name : me.email;
    return byUser.get(userId) ?? (userId === tree.owner_id ? (team.owner_name ?? words.owner) : words.someone);
  };
  const assignable = [
    tree.owner_id,
    ...members.filter((m) => m.status === 'active' && m.user_id !== null).map((m) => m.user_id as string),
  ];
  return {
    label,
    assignable: [...new Set(assignable)].map((id) => ({ id, label: label(id) })),
    memberLabel: (memberId) => {
      const member = members.find((m) => m.id === memberId);
      return member !== undefined ? memberLabel(member) : null;
    },
  };
}
