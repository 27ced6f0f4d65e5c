import { Type } from '@sinclair/typebox';
import { OneOf } from './common.js';
import { ScopeName, Token } from '../../domain/schemas/agents.js';
import { DEFAULT_TOKEN_DAYS, TOKEN_LIFETIME_DAYS } from '../../domain/agents/tokens.js';
import { TOKEN_NAME_MAX } from '../../domain/fields.js';

export { Token };

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
