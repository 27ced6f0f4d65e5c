import type { FastifyError, FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { OAuthError } from '../../domain/agents/oauth-errors.js';
import { REGISTRATION_MAX_BYTES } from '../../domain/agents/oauth-clients.js';
import { describeFailure } from '../errors.js';
import { acceptForms } from './form.js';
import { metadataRoutes } from './metadata.js';
import { endpointRoutes } from './endpoints.js';
import { authorizeRoutes } from './authorize.js';
import { loginRoutes } from './login.js';
import { appStylesheets } from './app-look.js';

/** What browser-based clients (the MCP Inspector) call cross-origin; none of it reads a cookie, so any origin may. */
const CROSS_ORIGIN = /^\/(\.well-known\/oauth-|oauth\/(register|token|revoke)(\?|$))/;

/**
 * The authorization server of CONTRACT §13 at the root: discovery, registration, token,
 * revocation, and the server-rendered /login and consent pages. Errors are RFC 6749 bodies.
 */
export const oauthRoutes = (deps: Deps) => async (app: FastifyInstance) => {
  acceptForms(app);
  app.addHook('onRequest', (request, reply, done) => {
    if (CROSS_ORIGIN.test(request.url)) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
      reply.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      if (request.method === 'OPTIONS') return void reply.code(204).send();
    }
    done();
  });
  app.setErrorHandler(function oauthError(error: FastifyError | OAuthError | Error, request, reply) {
    // RFC 6749 §5.1: answers of these endpoints are never cached, failures included.
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    if (error instanceof OAuthError) {
      return reply.code(error.status).send({ error: error.error, error_description: error.description });
    }
    const failure = describeFailure(error, reply);
    if (failure !== null && failure.status < 500) {
      if (request.url.startsWith('/oauth/register')) {
        // RFC 7591 §3.2.2 refuses a document with 400 invalid_client_metadata, an oversized one too (CONTRACT §19).
        const description =
          failure.status === 413
            ? `The registration document may have at most ${REGISTRATION_MAX_BYTES} bytes.`
            : failure.message;
        return reply
          .code(failure.status === 415 ? 415 : 400)
          .send({ error: 'invalid_client_metadata', error_description: description });
      }
      return reply
        .code(failure.status === 413 || failure.status === 415 ? failure.status : 400)
        .send({ error: 'invalid_request', error_description: failure.message });
    }
    request.log.error(
      { err: { type: error.name, message: error.message, stack: error.stack } },
      'unhandled OAuth error',
    );
    return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong on our side.' });
  });
  const preflight = { schema: { hide: true } };
  for (const path of [
    '/oauth/register',
    '/oauth/token',
    '/oauth/revoke',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource/api/v1',
  ]) {
    app.options(path, preflight, async (_request, reply) => reply.code(204).send());
  }
  metadataRoutes(deps, app);
  endpointRoutes(deps, app);
  // Read once: the build is fixed for the life of the process.
  const stylesheets = appStylesheets();
  authorizeRoutes(deps, app, stylesheets);
  loginRoutes(deps, app, stylesheets);
};
