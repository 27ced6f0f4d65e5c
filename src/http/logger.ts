import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
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
 *
 * Lines go to stdout without blocking: while one write is under way the next lines gather and
 * leave together, so a busy server makes one write per batch rather than a system call per
 * line (at info, synchronous lines cost more than the request they describe). pino flushes
 * what is left when the process exits.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    stream: pino.destination({ dest: 1, sync: false }),
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

/**
 * One access line per request, when its answer has gone: id, method, path, status and time.
 * Fastify's default also writes a line as each request arrives, which doubles the writes and
 * says nothing the completed line does not; errors are logged as Fastify logs them.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
