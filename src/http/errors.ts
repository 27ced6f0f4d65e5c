import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { DomainError, errorStatus, type ErrorCode } from '../domain/errors.js';
import { methodsOf } from './route-hooks.js';
import { NAME_PATTERN, NOT_BLANK_MESSAGE } from '../domain/fields.js';

interface ErrorBodyShape {
  error: { code: string; message: string; details?: unknown[]; request_id: string };
}

/**
 * Longer than any path Node's 16 KiB header limit lets through, so a long parameter always
 * reaches validation (400 for an id over 160 characters), never the router's own 414.
 */
export const MAX_PARAM_LENGTH = 65_536;

export function errorBody(request: FastifyRequest, code: string, message: string, details?: unknown[]): ErrorBodyShape {
  return { error: { code, message, ...(details !== undefined ? { details } : {}), request_id: request.id } };
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Ajv's errors as CONTRACT details: a JSON pointer into the part that failed, the rule, and the part. */
export function validationDetails(
  errors: AjvError[],
  context: string | undefined,
): { path: string; message: string; in: string }[] {
  const part = PART_NAMES[context ?? 'body'] ?? 'body';
  return errors
    .filter((e) => e.keyword !== 'if')
    .map((e) => {
      let path = e.instancePath;
      let message = e.message ?? 'is invalid';
      if (e.keyword === 'required') path += `/${String(e.params.missingProperty)}`;
      if (e.keyword === 'additionalProperties') {
        path += `/${String(e.params.additionalProperty)}`;
        message = 'is not a known property';
      }
      if (e.keyword === 'pattern' && e.params.pattern === NAME_PATTERN) message = NOT_BLANK_MESSAGE;
      return { path: path === '' ? '/' : path, message, in: part };
    });
}

/** Fastify's own failures, mapped to CONTRACT codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_ASYNC_CONSTRAINT: 'validation_failed',
};

function wwwAuthenticate(reply: FastifyReply, code: string, details: unknown[] | undefined): void {
  if (code === 'unauthenticated') reply.header('WWW-Authenticate', 'Bearer realm="tasktree"');
  if (code === 'insufficient_scope') {
    const scopes = (details?.[0] as { scopes?: string[] } | undefined)?.scopes ?? [];
    reply.header(
      'WWW-Authenticate',
      `Bearer realm="tasktree", error="insufficient_scope", scope="${scopes.join(' ')}"`,
    );
  }
}

export interface Failure {
  status: number;
  code: string;
  message: string;
  details?: unknown[];
}

/**
 * Any error a route can raise, as CONTRACT §1 describes it, with its response headers
 * (WWW-Authenticate, Retry-After) set. Null for a bug: the caller answers 500 and logs it.
 */
export function describeFailure(error: FastifyError | DomainError | Error, reply: FastifyReply): Failure | null {
  if (error instanceof DomainError) {
    wwwAuthenticate(reply, error.code, error.details);
    if (error.code === 'rate_limited' && !reply.hasHeader('Retry-After')) {
      const retry = (error.details?.[0] as { retry_after?: number } | undefined)?.retry_after;
      if (retry !== undefined) reply.header('Retry-After', retry);
    }
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  }
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation !== undefined) {
    const details = validationDetails(fastifyError.validation, fastifyError.validationContext);
    const first = details[0];
    const message = first === undefined ? 'The request is invalid.' : `${first.in} ${first.path} ${first.message}`;
    return { status: 400, code: 'validation_failed', message, details };
  }
  const mapped = fastifyError.code !== undefined ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped !== undefined) return { status: errorStatus[mapped], code: mapped, message: fastifyError.message };
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 413
        ? 'payload_too_large'
        : status === 415
          ? 'unsupported_media_type'
          : status === 404
            ? 'not_found'
            : 'validation_failed';
    return { status: errorStatus[code], code, message: fastifyError.message };
  }
  return null;
}

export const INTERNAL_MESSAGE = 'Something went wrong on our side; the request id helps us find it.';

/** A last say before the JSON 404, e.g. the browser app answering its own client-side routes. */
export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

export function installErrorHandling(
  app: FastifyInstance,
  fallback: { current: NotFoundFallback | null } = { current: null },
): void {
  app.setErrorHandler(function handleError(error: FastifyError | DomainError | Error, request, reply) {
    const failure = describeFailure(error, reply);
    if (failure !== null)
      return reply.code(failure.status).send(errorBody(request, failure.code, failure.message, failure.details));
    request.log.error({ err: { type: error.name, message: error.message, stack: error.stack } }, 'unhandled error');
    return reply.code(500).send(errorBody(request, 'internal_error', INTERNAL_MESSAGE));
  });

  // A second router that knows every path, so an unknown method on a known path is a 405, not a 404.
  const known = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });
  app.addHook('onRoute', (route) => {
    for (const method of methodsOf(route)) {
      if (!known.hasRoute(method as HTTPMethod, route.url)) known.on(method as HTTPMethod, route.url, () => undefined);
    }
  });
  app.setNotFoundHandler(function handleNotFound(request, reply) {
    if (fallback.current?.(request, reply) === true) return reply;
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => known.find(m, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return reply
        .code(405)
        .send(
          errorBody(request, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`),
        );
    }
    return reply.code(404).send(errorBody(request, 'not_found', `No route ${request.method} ${path}.`));
  });
}
