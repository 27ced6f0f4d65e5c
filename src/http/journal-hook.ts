import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { isApiCall } from '../domain/actor.js';

/** `GET /tasks/{id}`: the route template under /api/v1, never the concrete path or its query. */
export function operationOf(request: FastifyRequest, prefix: string): string {
  const template = (request.routeOptions.url ?? '').replace(prefix, '').replace(/:([A-Za-z_]+)/g, '{$1}');
  return `${request.method} ${template}`;
}

/** The product name of a User-Agent (`curl/8.5` → `curl`), a hint of which agent called. */
export function clientOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'];
  const product = typeof agent === 'string' ? agent.split(/[\s/]/)[0] : undefined;
  return product === undefined || product === '' ? null : product.slice(0, 80);
}

/** onResponse for /api/v1: one journal record per request made with a personal or OAuth token. */
export function makeJournalHook(deps: Deps, prefix: string) {
  return async function journalHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const actor = request.actor;
    if (actor === null || !isApiCall(actor) || actor.credentialId === null) return;
    deps.journal.record(actor.user.id, {
      surface: 'rest',
      operation: operationOf(request, prefix),
      status: reply.statusCode,
      duration_ms: reply.elapsedTime,
      token_id: actor.credentialId,
      client: clientOf(request),
    });
  };
}
