import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';
import { scopeNames } from '../../domain/actor.js';
import { DEFAULT_TOKEN_DAYS, TOKEN_LIFETIME_DAYS } from '../../domain/agents/tokens.js';
import { TOKEN_NAME_MAX } from '../../domain/fields.js';

const ScopeName = OneOf(scopeNames);

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
  },
  { $id: 'Token', title: 'Token' },
);

export const TokenInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX }),
    scopes: Type.Optional(Type.Array(ScopeName, { minItems: 1, uniqueItems: true })),
    expires_in_days: Type.Optional(OneOf(TOKEN_LIFETIME_DAYS, { default: DEFAULT_TOKEN_DAYS })),
  },
  { additionalProperties: false, $id: 'TokenInput', title: 'TokenInput' },
);

export const TokenCreated = Type.Object(
  { token: Token, value: Type.String({ description: 'ttp_… shown once; only a hash is stored' }) },
  { $id: 'TokenCreated', title: 'TokenCreated' },
);

export const TokenList = Type.Object({ items: Type.Array(Token) });
