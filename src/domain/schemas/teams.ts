import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './types.js';

/** Members, invitations, comments, messages and history (CONTRACT §10): each domain type is the Static of its schema here. */
export const memberRoles = ['viewer', 'editor'] as const;
export const Role = OneOf(memberRoles);

export const Member = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    user_id: Nullable(Type.String()),
    email: Type.String(),
    name: Nullable(
      Type.String({
        description:
          "The member account's profile name ('' when they gave none), null while no account is linked to the invitation",
      }),
    ),
    role: Role,
    status: OneOf(['pending', 'active', 'revoked', 'expired']),
    expires_at: Nullable(Type.String()),
    invited_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Member' },
);

export const Invitation = Type.Object(
  {
    ...Member.properties,
    tree_name: Type.String(),
    invited_by_name: Type.String({
      description: "Who sent the invitation: the inviter's name, or their email when they gave none",
    }),
  },
  { title: 'Invitation' },
);

export const Comment = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    author_id: Nullable(Type.String({ description: 'null once the author deleted their account' })),
    body: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Comment' },
);

export const Message = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    author_id: Nullable(Type.String({ description: 'null once the author deleted their account' })),
    body: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Message' },
);

export const HistoryEntry = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    tree_id: Type.String(),
    actor_id: Type.String(),
    via: Type.String({ description: 'session, token, oauth, mcp or cli' }),
    entity: Type.String(),
    entity_id: Type.String(),
    action: Type.String({ description: 'created, updated, deleted, moved, completed, imported, …' }),
    changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
  },
  { $id: 'HistoryEntry', title: 'HistoryEntry' },
);
