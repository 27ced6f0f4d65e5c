import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './types.js';

/** What agents hold and what they did (CONTRACT §3, §8, §13): each domain type is the Static of its schema here. */
export const scopeNames = ['read', 'write', 'attachments'] as const;
export const ScopeName = OneOf(scopeNames);

/** The trees a credential is limited to, as chosen (CONTRACT §16.1); null: every tree the user can see. */
export const TreeIds = Nullable(
  Type.Array(Type.String(), {
    description:
      'The trees this credential is limited to (1 to 50); null: every tree the user can see. Any other tree reads as not found.',
  }),
);

export const Token = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(ScopeName),
    prefix: Type.String({ description: 'The first characters of the value, to recognise it' }),
    created_at: Timestamp,
    expires_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
    status: OneOf(['active', 'expired', 'revoked']),
    tree_ids: TreeIds,
  },
  { $id: 'Token', title: 'Token' },
);

export const OAuthConnection = Type.Object(
  {
    id: Type.String({ description: 'The grant id (oag_…); the journal shows it as token_id' }),
    client_id: Type.String(),
    client_name: Type.String({ description: 'As the client registered it: shown escaped, never trusted' }),
    scopes: Type.Array(OneOf(scopeNames)),
    resource: Type.String({
      description: 'The one resource its tokens work at: {PUBLIC_URL}/mcp or {PUBLIC_URL}/api/v1',
    }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    tree_ids: TreeIds,
  },
  { $id: 'OAuthConnection', title: 'OAuthConnection' },
);

export const AgentCall = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    surface: OneOf(['rest', 'mcp']),
    operation: Type.String({ description: 'route template (GET /tasks/{id}) or MCP method (tools/call search)' }),
    status: Type.Integer({ description: 'HTTP status of the answer' }),
    duration_ms: Type.Integer(),
    token_id: Type.String(),
    client: Nullable(Type.String()),
    change_id: Nullable(
      Type.String({
        description: 'The change (chg_…) the call wrote, as its history entries name it; null when it wrote nothing',
      }),
    ),
  },
  { $id: 'AgentCall', title: 'AgentCall' },
);
