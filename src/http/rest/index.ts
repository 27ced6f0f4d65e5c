import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { authRoutes } from './auth.js';
import { tokenRoutes } from './tokens.js';
import { treeRoutes } from './trees.js';
import { projectRoutes } from './projects.js';
import { taskRoutes } from './tasks.js';
import { searchRoutes } from './search.js';
import { agentCallRoutes } from './agent-calls.js';
import { attachmentRoutes } from './attachments.js';
import { speechRoutes } from './speech.js';
import { memberRoutes } from './members.js';
import { discussionRoutes } from './discussion.js';
import { importRoutes } from './import.js';
import { billingRoutes } from './billing.js';
import { oauthConnectionRoutes } from './oauth-connections.js';
import { changeRoutes } from './changes.js';

/** Every REST resource, mounted under /api/v1 behind the shared pipeline. One line per resource file. */
export const restRoutes: ((deps: Deps) => FastifyPluginAsyncTypebox)[] = [
  authRoutes,
  tokenRoutes,
  treeRoutes,
  projectRoutes,
  taskRoutes,
  searchRoutes,
  agentCallRoutes,
  attachmentRoutes,
  speechRoutes,
  memberRoutes,
  discussionRoutes,
  importRoutes,
  billingRoutes,
  oauthConnectionRoutes,
  changeRoutes,
];
