import { Type } from '@sinclair/typebox';
import { OneOf } from './common.js';
import { ScopeName, Token } from '../../domain/schemas/agents.js';
import { DEFAULT_TOKEN_DAYS, TOKEN_LIFETIME_DAYS } from '../../domain/agents/tokens.js';
import { ID_MAX, TOKEN_NAME_MAX } from '../../domain/fields.js';
import { Nullable } from '../../domain/schemas/types.js';
import { CREDENTIAL_TREES_MAX } from '../../domain/agents/credential-trees.js';

export { Token };

export const TokenInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX }),
    scopes: Type.Optional(Type.Array(ScopeName, { minItems: 1, uniqueItems: true })),
    expires_in_days: Type.Optional(OneOf(TOKEN_LIFETIME_DAYS, { default: DEFAULT_TOKEN_DAYS })),
    tree_ids: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 1, maxLength: ID_MAX }), {
          minItems: 1,
          maxItems: CREDENTIAL_TREES_MAX,
          uniqueItems: true,
          description:
            'Limit the token to these trees (1 to 50 distinct ids, each one you can see now, else 404 not_found and nothing is created). Omitted or null: every tree you can see.',
        }),
      ),
    ),
  },
  { additionalProperties: false, $id: 'TokenInput', title: 'TokenInput' },
);

export const TokenCreated = Type.Object(
  { token: Token, value: Type.String({ description: 'ttp_… shown once; only a hash is stored' }) },
  { $id: 'TokenCreated', title: 'TokenCreated' },
);

export const TokenList = Type.Object({ items: Type.Array(Token) });
