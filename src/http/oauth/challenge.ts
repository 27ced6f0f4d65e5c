import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { issuerOf, resourceKindOf, resourceMetadataUrl } from './issuer.js';

/**
 * onSend: every 401 from /mcp or /api/v1 names its resource's RFC 9728 document, so an MCP
 * client that meets a 401 can discover where to get a token (CONTRACT §13).
 */
export function makeChallengeHook(deps: Deps) {
  return function challenge(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, payload: unknown) => void,
  ): void {
    if (reply.statusCode === 401) {
      const kind = resourceKindOf(request.url);
      if (kind !== null) {
        reply.header(
          'WWW-Authenticate',
          `Bearer realm="tasktree", resource_metadata="${resourceMetadataUrl(issuerOf(deps, request), kind)}"`,
        );
      }
    }
    done(null, payload);
  };
}
