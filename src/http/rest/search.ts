import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { searchTasks } from '../../domain/trees/search.js';
import { access } from '../access.js';
import { errors, ReadHeaders } from '../schemas/common.js';
import { SearchQuery, TaskList } from '../schemas/data.js';

export const searchRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/search',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'searchTasks',
          tags: ['Tasks'],
          summary: 'Literal-term search over task title, text and notes, in creation order',
          querystring: SearchQuery,
          headers: ReadHeaders,
          response: { 200: TaskList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => searchTasks(deps, request.actor!, request.query),
    );
  };
