import { Type } from '@sinclair/typebox';
import { Name, Nullable } from './common.js';
import { CursorQuery } from './data.js';
import { Comment, HistoryEntry, Invitation, Member, Message, Role } from '../../domain/schemas/teams.js';
import { EMAIL_MAX, ID_MAX, POST_BODY_MAX } from '../../domain/fields.js';

/** Members, invitations (CONTRACT §10). */
export { Comment, HistoryEntry, Invitation, Member, Message };
const Expiry = Nullable(
  Type.String({ format: 'date-time', description: 'any time; once passed the member reads as expired' }),
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
export const MemberList = Type.Object({
  items: Type.Array(Member),
  owner_name: Type.String({
    description: "How to name the tree's owner: their name, or their email when they gave none",
  }),
});
export const InviteInput = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: EMAIL_MAX }), role: Role, expires_at: Type.Optional(Expiry) },
  { additionalProperties: false },
);
export const MemberPatch = Type.Object(
  { role: Type.Optional(Role), expires_at: Type.Optional(Expiry) },
  { additionalProperties: false },
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
const Body = Name(POST_BODY_MAX);
export const PostInput = Type.Object({ body: Body }, { additionalProperties: false });
export const CommentOnly = Type.Object({ comment: Comment });
export const CommentList = Type.Object({ items: Type.Array(Comment), next_cursor: Nullable(Type.String()) });
export const MessageOnly = Type.Object({ message: Message });
export const MessageList = Type.Object({ items: Type.Array(Message), next_cursor: Nullable(Type.String()) });
/** A history page's filters (CONTRACT §16.3): one change, or one credential's entries. */
export const HistoryQuery = Type.Object({
  ...CursorQuery.properties,
  change_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: ID_MAX, description: 'Only the entries of this change (chg_…)' }),
  ),
  credential_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: ID_MAX,
      description: 'Only the entries written with this personal token (pat_…) or OAuth grant',
    }),
  ),
});

export const HistoryList = Type.Object({ items: Type.Array(HistoryEntry), next_cursor: Nullable(Type.String()) });
