import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../domain/deps.js';
import type { HttpTimeouts, TrustProxy } from '../config.js';
import { makeValidatorCompiler } from './validation.js';
import { installErrorHandling, MAX_PARAM_LENGTH, type NotFoundFallback } from './errors.js';
import { answerClientError, answerFrameworkError } from './client-errors.js';
import { loggingOptions, requestIdOf } from './logger.js';
import { makePipeline } from './pipeline.js';
import { addRouteHook } from './route-hooks.js';
import { makeIdempotencyGuard, makeIdempotencyRecorder, takesIdempotencyKey } from './idempotency.js';
import { applyReadCaching } from './etag.js';
import { makeJournalHook } from './journal-hook.js';
import { registerOpenApi } from './openapi.js';
import { ErrorBody } from './schemas/common.js';
import { healthSchema, readinessSchema } from './schemas/service.js';
import { restRoutes } from './rest/index.js';
import { mcpRoutes } from './mcp/route.js';
import { oauthRoutes } from './oauth/index.js';
import { makeChallengeHook } from './oauth/challenge.js';
import { registerWebApp } from './web.js';
import { unreachableDependencies } from './readiness.js';
import { makeMetricsHook } from '../metrics/http-hook.js';
import { writeAnswersAtTurnEnd } from './turn-end-writes.js';

export const API_PREFIX = '/api/v1';
const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Node checks the headers and request timeouts of open connections on an interval (30 s by
 * default), so a timeout fires up to that late; a tenth of the shorter one keeps it close.
 */
function checkingInterval(timeouts: HttpTimeouts): number {
  return Math.min(
    30_000,
    Math.max(50, Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 10)),
  );
}

/**
 * TRUST_PROXY as Fastify's option, from which `request.ip` (every per-address limit) and
 * `request.protocol` come. A hop count is given as proxy-addr's own rule for it (hop i is trusted
 * while i < n): Fastify 5 reads a bare number as "trust nobody", ignoring the count.
 */
function trustProxyOption(trust: TrustProxy | null): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === null) return false;
  if ('addresses' in trust) return trust.addresses;
  const { hops } = trust;
  return (_address, hop) => hop < hops;
}

/** Builds the HTTP door: service endpoints, the OpenAPI document, and the REST API behind one pipeline. */
export async function buildServer(deps: Deps): Promise<FastifyInstance> {
  const timeouts = deps.config.http;
  const app = Fastify({
    ...loggingOptions(deps.config.logLevel),
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxyOption(deps.config.trustProxy),
    // frameworkErrors answers §1 should a larger --max-http-header-size let a longer one through.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Nothing may hold a connection forever: Fastify's defaults wait without limit for a body.
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: { headersTimeout: timeouts.headersTimeoutMs, connectionsCheckingInterval: checkingInterval(timeouts) },
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(makeValidatorCompiler());
  app.addSchema(ErrorBody);
  // The browser app's fallback is known only once its files are registered, after the handler.
  const notFoundFallback: { current: NotFoundFallback | null } = { current: null };
  installErrorHandling(app, notFoundFallback);
  acceptEmptyJsonBodies(app);
  // Set by the first onRequest hook below, before anything reads it.
  app.decorateRequest('routeConfig', null as unknown as FastifyRequest['routeConfig']);
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('credential', null);
  app.decorateRequest('credentialClient', null);
  app.decorateRequest('idempotency', null);
  // Hooks that run on every request and never wait are callback hooks: an async one costs a promise.
  app.addHook('onRequest', (request, reply, done) => {
    request.routeConfig = request.routeOptions.config;
    reply.header('x-request-id', request.id);
    done();
  });
  if (deps.metrics !== null) app.addHook('onResponse', makeMetricsHook(deps.metrics));
  // The first onSend hook, so it holds every answer (the later hooks run when it lets go).
  writeAnswersAtTurnEnd(app);
  app.addHook('onSend', makeChallengeHook(deps));
  // A write sent without a body is validated as an empty object: PATCH with no body is a no-op.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body !== undefined) addRouteHook(route, 'preValidation', emptyBodyAsObject);
  });

  // Cookies are parsed where credentials are resolved, and only when no Bearer token decides.
  await app.register(cookie, { hook: false });
  await registerOpenApi(app, deps.config.publicUrl);

  app.get('/healthz', { config: { rateLimit: false }, schema: healthSchema }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { config: { rateLimit: false }, schema: readinessSchema }, async (request, reply) => {
    const down = await unreachableDependencies(deps);
    if (down.length === 0) return { status: 'ready' as const };
    request.log.warn({ unreachable: down }, 'not ready');
    return reply.code(503).send({ status: 'unavailable' as const });
  });

  await app.register(mcpRoutes(deps));
  await app.register(oauthRoutes(deps));
  await app.register(
    async (api) => {
      api.addHook('onRequest', makePipeline(deps));
      const [guard, recorder] = [makeIdempotencyGuard(deps), makeIdempotencyRecorder(deps)];
      api.addHook('onRoute', (route) => {
        if (!takesIdempotencyKey(route)) return;
        addRouteHook(route, 'preHandler', guard);
        addRouteHook(route, 'onSend', recorder);
      });
      api.addHook('onSend', applyReadCaching);
      api.addHook('onResponse', makeJournalHook(deps, API_PREFIX));
      api.get('/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async () => app.swagger());
      for (const routes of restRoutes) await api.register(routes(deps));
    },
    { prefix: API_PREFIX },
  );

  const web = await registerWebApp(app);
  notFoundFallback.current = web?.fallback ?? null;
  return app;
}

/** preValidation of the routes with a body schema (never a GET or HEAD): no body reads as `{}`. */
function emptyBodyAsObject(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.body === undefined) request.body = {};
  done();
}

/**
 * JSON is the only body type the API takes (plain text goes to 415). An empty body with a JSON
 * content type counts as no body, since many clients send the header on every request.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}
