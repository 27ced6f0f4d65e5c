import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { searchTasks } from '../../domain/trees/search.js';
import { access } from '../access.js';
import { errors, ReadHeaders } from '../schemas/common.js';
import { pageQuery, TaskList } from '../schemas/data.js';

export const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: 'terms split on white space; "a quoted run" is one term; every term literal, case-insensitive, substring; all must match' }),
  tree_id: Type.Optional(Type.String({ minLength: 1, maxLength: 160 })),
  ...pageQuery,
});

export const searchRoutes = (deps: Deps): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/search', {
    config: { access: access.read() },
    schema: {
      tags: ['Tasks'], summary: 'Literal-term search over task title, text and notes, in creation order',
      querystring: SearchQuery, headers: ReadHeaders, response: { 200: TaskList, ...errors(401, 403, 404, 409) },
    },
  }, async (request) => searchTasks(deps, request.actor!, request.query));
};
