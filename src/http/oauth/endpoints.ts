import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { MINUTE_MS } from '../../domain/rate-limit.js';
import { REGISTRATION_MAX_BYTES, registerClient } from '../../domain/agents/oauth-clients.js';
import { exchangeCode, refreshTokens, revokeOAuthToken } from '../../domain/agents/oauth-tokens.js';
import { OAuthError } from '../../domain/agents/oauth-errors.js';
import { formParameters } from './form.js';

const hidden = { hide: true };
export const REGISTRATIONS_PER_MINUTE = 60;

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

/** RFC 7591 registration, the RFC 6749 token endpoint and RFC 7009 revocation. */
export function endpointRoutes(deps: Deps, app: FastifyInstance): void {
  // A longer document is refused as it arrives, before it is read (oauthError answers it 400).
  app.post('/oauth/register', { schema: hidden, bodyLimit: REGISTRATION_MAX_BYTES }, async (request, reply) => {
    const counted = await deps.limiter.consume(`oauth-register:${request.ip}`, REGISTRATIONS_PER_MINUTE, MINUTE_MS);
    reply
      .header('RateLimit-Limit', counted.limit)
      .header('RateLimit-Remaining', counted.remaining)
      .header('RateLimit-Reset', counted.resetSeconds);
    if (!counted.allowed) {
      reply.header('Retry-After', counted.resetSeconds);
      throw new OAuthError(
        'rate_limited',
        `At most ${REGISTRATIONS_PER_MINUTE} registrations a minute per address; retry after ${counted.resetSeconds} s.`,
        429,
      );
    }
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      throw new OAuthError('invalid_client_metadata', 'Send the registration document as application/json.');
    }
    return noStore(reply)
      .code(201)
      .send(await registerClient(deps, request.body));
  });

  app.post('/oauth/token', { schema: hidden }, async (request, reply) => {
    const form = formParameters(request);
    noStore(reply);
    if (form.grant_type === 'authorization_code') return exchangeCode(deps, form);
    if (form.grant_type === 'refresh_token') return refreshTokens(deps, form);
    if (form.grant_type === undefined) throw new OAuthError('invalid_request', 'grant_type is required.');
    throw new OAuthError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
  });

  app.post('/oauth/revoke', { schema: hidden }, async (request, reply) => {
    const form = formParameters(request);
    await revokeOAuthToken(deps, form);
    return noStore(reply).code(200).send();
  });
}
