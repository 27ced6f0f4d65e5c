import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { isApiCall } from '../domain/actor.js';
import { writtenChangeId } from '../domain/change.js';

const operations = new Map<string, string>();

/** `GET /tasks/{id}`: the route template under /api/v1, never the concrete path or its query. */
export function operationOf(request: FastifyRequest, prefix: string): string {
  const url = request.routeConfig.url ?? '';
  const key = `${request.method} ${url}`;
  let operation = operations.get(key);
  if (operation === undefined) {
    // Route templates are a fixed set (plus the 404 route), so this cache stays small.
    operation = `${request.method} ${url.replace(prefix, '').replace(/:([A-Za-z_]+)/g, '{$1}')}`;
    operations.set(key, operation);
  }
  return operation;
}

/** The product name of a User-Agent (`curl/8.5` → `curl`), a hint of which agent called. */
export function clientOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'];
  if (typeof agent !== 'string' || agent === '') return null;
  let end = 0;
  while (end < agent.length && end < 80 && agent[end] !== '/' && agent[end] !== ' ') end++;
  return end === 0 ? null : agent.slice(0, end);
}

/**
 * onResponse for /api/v1: one journal record per request made with a personal or OAuth token.
 * A callback hook, not an async one: it runs on every API request and needs no promise.
 */
export function makeJournalHook(deps: Deps, prefix: string) {
  return function journalHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const actor = request.actor;
    if (actor !== null && isApiCall(actor) && actor.credentialId !== null) {
      deps.journal.record(actor.user.id, {
        surface: 'rest',
        operation: operationOf(request, prefix),
        status: reply.statusCode,
        duration_ms: reply.elapsedTime,
        token_id: actor.credentialId,
        client: request.credentialClient ?? clientOf(request),
        change_id: writtenChangeId(actor.change),
      });
    }
    done();
  };
}
