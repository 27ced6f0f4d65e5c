import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';
import { scopeNames } from '../../domain/actor.js';

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
  },
  { $id: 'OAuthConnection', title: 'OAuthConnection' },
);

export const OAuthConnectionList = Type.Object({ items: Type.Array(OAuthConnection) });
