import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';
import { memberRoles } from '../../domain/trees/members.js';
import { EMAIL_MAX, ID_MAX, POST_BODY_MAX } from '../../domain/fields.js';

/** Members, invitations (CONTRACT §10). */
const Role = OneOf(memberRoles);
const Expiry = Nullable(
  Type.String({ format: 'date-time', description: 'any time; once passed the member reads as expired' }),
);

export const Member = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    user_id: Nullable(Type.String()),
    email: Type.String(),
    role: Role,
    status: OneOf(['pending', 'active', 'revoked', 'expired']),
    expires_at: Nullable(Type.String()),
    invited_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Member' },
);

export const MemberOnly = Type.Object({ member: Member });
export const MemberInvited = Type.Object({
  member: Member,
  invite_url: Type.String({
    format: 'uri',
    description:
      "The invitation's one-time link (`/invite?token=…&id=…` at PUBLIC_URL), shown this once: whoever opens it signed in may accept the invitation, once.",
  }),
});
export const AcceptInput = Type.Object(
  {
    token: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "the token of the invitation's link (`invite_url`)" }),
    ),
  },
  { additionalProperties: false },
);
export const MemberList = Type.Object({ items: Type.Array(Member) });
export const InviteInput = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: EMAIL_MAX }), role: Role, expires_at: Type.Optional(Expiry) },
  { additionalProperties: false },
);
export const MemberPatch = Type.Object(
  { role: Type.Optional(Role), expires_at: Type.Optional(Expiry) },
  { additionalProperties: false },
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
export const InvitationList = Type.Object({ items: Type.Array(Invitation) });

/** Assignments, comments, messages and history (CONTRACT §10). */
export const AssigneesInput = Type.Object(
  {
    user_ids: Type.Array(Type.String({ minLength: 1, maxLength: ID_MAX }), {
      maxItems: 50,
      description: 'the tree owner or active members',
    }),
  },
  { additionalProperties: false },
);
const Body = Type.String({ minLength: 1, maxLength: POST_BODY_MAX });
export const PostInput = Type.Object({ body: Body }, { additionalProperties: false });
export const Comment = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    author_id: Type.String(),
    body: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Comment' },
);
export const CommentOnly = Type.Object({ comment: Comment });
export const CommentList = Type.Object({ items: Type.Array(Comment), next_cursor: Nullable(Type.String()) });
export const Message = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    author_id: Type.String(),
    body: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Message' },
);
export const MessageOnly = Type.Object({ message: Message });
export const MessageList = Type.Object({ items: Type.Array(Message), next_cursor: Nullable(Type.String()) });
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
export const HistoryList = Type.Object({ items: Type.Array(HistoryEntry), next_cursor: Nullable(Type.String()) });
