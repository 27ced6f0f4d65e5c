import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { AgentCall } from '../../domain/schemas/agents.js';
import { access } from '../access.js';
import { errors, ReadHeaders } from '../schemas/common.js';

export const agentCallRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/agent-calls',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'listAgentCalls',
          tags: ['Agent call journal'],
          summary: "The latest 100 calls made with the user's tokens, newest first",
          description:
            'Metadata only: no bodies, queries, search terms, note text or credentials. At most 2,000 are kept per owner.',
          headers: ReadHeaders,
          response: { 200: Type.Object({ items: Type.Array(AgentCall) }), ...errors(401, 403, 409) },
        },
      },
      async (request) => ({ items: await deps.journal.latest(request.actor!.user.id) }),
    );
  };
