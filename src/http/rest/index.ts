import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { authRoutes } from './auth.js';
import { tokenRoutes } from './tokens.js';

/** Every REST resource, mounted under /api/v1 behind the shared pipeline. One line per resource file. */
export const restRoutes: ((deps: Deps) => FastifyPluginAsyncTypebox)[] = [
  authRoutes,
  tokenRoutes,
];
