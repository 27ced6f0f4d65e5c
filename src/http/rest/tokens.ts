import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { createToken, listTokens, revokeToken } from '../../domain/agents/tokens.js';
import { access } from '../access.js';
import { errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { TokenCreated, TokenInput, TokenList } from '../schemas/tokens.js';

const tags = ['Personal tokens'];

export const tokenRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/tokens',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'listTokens',
          tags,
          summary: 'Every personal token of the signed-in user, newest first',
          headers: ReadHeaders,
          response: { 200: TokenList, ...errors(401, 403, 409) },
        },
      },
      async (request) => ({ items: await listTokens(deps, request.actor!) }),
    );

    app.post(
      '/tokens',
      {
        config: { access: access.sessionUser, idempotency: 'reject' },
        schema: {
          operationId: 'createToken',
          tags,
          summary: 'Create a personal token; its value is returned once',
          description:
            'Idempotency-Key is refused (400 idempotency_key_not_allowed) before anything is created. At most 20 active tokens. ' +
            'With `tree_ids` the token sees only those trees: any other tree, and everything in it, reads as 404 not_found, lists and search leave them out, and POST /trees is 403 insufficient_scope. ' +
            'A listed tree that is deleted or whose membership ends is simply not seen.',
          body: TokenInput,
          headers: WriteHeaders,
          response: { 201: TokenCreated, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => reply.code(201).send(await createToken(deps, request.actor!, request.body)),
    );

    app.delete(
      '/tokens/:id',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'revokeToken',
          tags,
          summary: 'Revoke a personal token',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await revokeToken(deps, request.actor!, request.params.id);
        return { ok: true };
      },
    );
  };
