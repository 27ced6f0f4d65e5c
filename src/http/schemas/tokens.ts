import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.js';

const ScopeName = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('attachments')]);

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
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  },
  { title: 'Token' },
);

export const TokenInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    scopes: Type.Optional(Type.Array(ScopeName, { minItems: 1, uniqueItems: true })),
    expires_in_days: Type.Optional(
      Type.Union([Type.Literal(1), Type.Literal(7), Type.Literal(30), Type.Literal(90), Type.Literal(365)], { default: 90 }),
    ),
  },
  { additionalProperties: false, title: 'TokenInput' },
);

export const TokenCreated = Type.Object(
  { token: Token, value: Type.String({ description: 'ttp_… shown once; only a hash is stored' }) },
  { title: 'TokenCreated' },
);

export const TokenList = Type.Object({ items: Type.Array(Token) });
