import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { scopeNames } from '../../domain/actor.js';
import { issuerOf, resourceUrl, type ResourceKind } from './issuer.js';

const hidden = { hide: true };

/** RFC 8414 authorization server metadata and the two RFC 9728 protected-resource documents. No OpenID discovery. */
export function metadataRoutes(deps: Deps, app: FastifyInstance): void {
  app.get('/.well-known/oauth-authorization-server', { schema: hidden }, async (request, reply) => {
    const issuer = issuerOf(deps, request);
    reply.header('Cache-Control', 'public, max-age=3600');
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      scopes_supported: [...scopeNames],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: false,
    };
  });

  const protectedResource = (kind: ResourceKind) => async (request: FastifyRequest, reply: FastifyReply) => {
    const issuer = issuerOf(deps, request);
    reply.header('Cache-Control', 'public, max-age=3600');
    return {
      resource: resourceUrl(issuer, kind),
      authorization_servers: [issuer],
      scopes_supported: [...scopeNames],
      bearer_methods_supported: ['header'],
      resource_name: kind === 'mcp' ? 'Task Tree MCP' : 'Task Tree REST API',
    };
  };
  // The bare path answers for /mcp: clients that skip the path suffix land on the MCP resource.
  app.get('/.well-known/oauth-protected-resource', { schema: hidden }, protectedResource('mcp'));
  app.get('/.well-known/oauth-protected-resource/mcp', { schema: hidden }, protectedResource('mcp'));
  app.get('/.well-known/oauth-protected-resource/api/v1', { schema: hidden }, protectedResource('api'));
}
