import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { IncomingMessage } from 'node:http';
import { LogDestination } from './log-destination.js';

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
 * Lines go to stdout in batches of 16 KiB, each one write (see LogDestination): a write per line
 * cost a busy server 15 µs of CPU per request, a third of `GET /auth/me`. A process killed
 * outright loses at most its last second of lines.
 */
export function loggingOptions(
  level: string,
  given?: pino.DestinationStream,
): Pick<FastifyServerOptions, 'logger' | 'logController' | 'childLoggerFactory'> {
  if (level === 'silent') return { logger: false };
  const stream = given ?? new LogDestination();
  return {
    logController: new AccessLog(stream, pino.levels.values[level]! <= pino.levels.values.info!),
    childLoggerFactory: requestLogger,
    logger: {
      level,
      stream,
      serializers: {
        req(req: { method: string; url: string; id: string }) {
          return { id: req.id, method: req.method, path: req.url.split('?')[0] };
        },
        res(res: { statusCode: number }) {
          return { status: res.statusCode };
        },
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
 *
 * The line is the one pino would write through a request's child logger (the same fields in
 * the same order), put together here and handed to the stream: through pino, with its
 * serializers and a child per request, it cost 4 µs of a 36 µs `GET /auth/me`. So the
 * request's own logger (see RequestLogger) is never made for it.
 */
export class AccessLog extends LogController {
  private readonly bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  /** The time of the last line and its text: a busy second writes many lines per millisecond. */
  private lastMs = 0;
  private lastMsText = '0';

  constructor(
    private readonly stream: pino.DestinationStream,
    private readonly infoEnabled: boolean,
  ) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      request.server.log.error(
        { reqId: request.id, req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else if (this.infoEnabled) {
      // Ids are ours or match REQUEST_ID (requestIdOf), so they never need escaping.
      const id = `"${request.id}"`;
      const query = request.url.indexOf('?');
      const path = jsonString(query === -1 ? request.url : request.url.slice(0, query));
      const now = Date.now();
      if (now !== this.lastMs) {
        this.lastMs = now;
        this.lastMsText = String(now);
      }
      this.stream.write(
        `{"level":30,"time":${this.lastMsText}${this.bindings},"reqId":${id},"req":{"id":${id},"method":"${request.method}","path":${path}},` +
          `"res":{"status":${reply.statusCode}},"responseTime":${millis(reply.elapsedTime)},"msg":"request completed"}\n`,
      );
    }
  }
}

/** What a JSON string must escape: a quote, a backslash, a control character. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** A path as a JSON string; most need no escaping, and JSON.stringify costs more than the test. */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * Milliseconds to the microsecond (`0.682`), written from integers: a double's shortest form
 * (`0.6822449999999662`) cost more to print than the rest of the line.
 */
export function millis(ms: number): string {
  const micros = Math.round(ms * 1000);
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  return `${whole}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

type LogArgs = [object | string, ...unknown[]];
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * `request.log`, made into a pino child (with the request id bound) only when the request logs
 * something of its own. Fastify would make a child for every request, and under load those
 * children cost more in garbage collection than the access line itself (the service's GC time
 * fell from 11 % to 4 % of its CPU without them, `GET /auth/me` at 20,000 req/s).
 */
class RequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: LevelName, args: LogArgs): void {
    const real = this.real;
    (real[level] as (...a: LogArgs) => void).apply(real, args);
  }
}

/** Fastify's `childLoggerFactory`: a RequestLogger in place of a child made up front. */
function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
