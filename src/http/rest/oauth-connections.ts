import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { listConnections, revokeConnection } from '../../domain/agents/oauth-grants.js';
import { access } from '../access.js';
import { errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { OAuthConnectionList } from '../schemas/oauth.js';

const tags = ['OAuth connections'];

/** The user's OAuth grants (CONTRACT §13): session only, like personal tokens. */
export const oauthConnectionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/oauth/connections',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'listOAuthConnections',
          tags,
          summary: 'Apps connected through OAuth, newest first',
          headers: ReadHeaders,
          response: { 200: OAuthConnectionList, ...errors(401, 403, 409) },
        },
      },
      async (request) => ({ items: await listConnections(deps, request.actor!) }),
    );

    app.delete(
      '/oauth/connections/:id',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'revokeOAuthConnection',
          tags,
          summary: 'Revoke a connection: its tokens and MCP sessions end at once',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await revokeConnection(deps, request.actor!, request.params.id);
        return { ok: true };
      },
    );
  };
