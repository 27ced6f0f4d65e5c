import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';

const ScopeName = OneOf(['read', 'write', 'attachments']);

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
  { title: 'Token' },
);

export const TokenInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    scopes: Type.Optional(Type.Array(ScopeName, { minItems: 1, uniqueItems: true })),
    expires_in_days: Type.Optional(
      OneOf([1, 7, 30, 90, 365], { default: 90 }),
    ),
  },
  { additionalProperties: false, title: 'TokenInput' },
);

export const TokenCreated = Type.Object(
  { token: Token, value: Type.String({ description: 'ttp_… shown once; only a hash is stored' }) },
  { title: 'TokenCreated' },
);

export const TokenList = Type.Object({ items: Type.Array(Token) });
