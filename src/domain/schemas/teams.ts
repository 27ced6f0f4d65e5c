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
    entity: Type.String({ description: 'tree, project, task, comment, message, attachment or member' }),
    entity_id: Type.String(),
    action: Type.String({
      description:
        'created, updated, deleted, moved, completed or imported (an assignment is an updated task whose changes hold assignee_ids). A deleted task or project holds every field of the record as {from: value, to: null}',
    }),
    changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
    change_id: Type.String({
      description: 'The change (chg_…) the entry belongs to: one request, MCP tool call, CLI command, import or revert',
    }),
    credential_id: Nullable(
      Type.String({
        description: 'The personal token (pat_…) or OAuth grant that wrote it; null for a browser session or the CLI',
      }),
    ),
    client: Nullable(Type.String({ description: "The token's name or the OAuth client's name; null otherwise" })),
    reverts: Nullable(Type.String({ description: 'The change a revert undid with this entry; null otherwise' })),
  },
  { $id: 'HistoryEntry', title: 'HistoryEntry' },
);
