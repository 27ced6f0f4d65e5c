import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a caller's X-Request-Id when it is plain, else make one: ids are safe to log and to show. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Structured logs that never carry a token, cookie, password, body or query string
 * (a query may hold search terms): requests are logged as method, path and id only.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    serializers: {
      req(req: { method: string; url: string; id: string }) {
        return { id: req.id, method: req.method, path: req.url.split('?')[0] };
      },
      res(res: { statusCode: number }) {
        return { status: res.statusCode };
      },
    },
  };
}

/** Reports a failure off the request path as a warning: its message only, never what it carried. */
export function warnWith(log: FastifyBaseLogger, what: string): (err: unknown) => void {
  return (err) => log.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, what);
}
