import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

interface ClientFailure {
  status: number;
  code: string;
  message: string;
}

/**
 * What Node's HTTP parser refuses before any request exists. 431 and a malformed request keep
 * CONTRACT §1's `validation_failed` (a header or the framing breaks a rule); a request that
 * took longer than REQUEST_TIMEOUT_SECONDS or HEADERS_TIMEOUT_SECONDS is 408 `request_timeout`,
 * the one code §1 has no row for because only the connection, not the API, decides it.
 */
function describeClientError(err: NodeJS.ErrnoException): ClientFailure {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'request_timeout', message: 'The request took too long to arrive.' };
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      code: 'validation_failed',
      message: 'The request line and headers are too large (at most 16 KiB).',
    };
  if (err.code === 'HPE_INVALID_EOF_STATE')
    return { status: 400, code: 'validation_failed', message: 'The connection ended before the request was complete.' };
  return { status: 400, code: 'validation_failed', message: 'The request is not valid HTTP/1.1.' };
}

/** What Node's HTTP server keeps on a connection's socket, outside its public types. */
interface ServerSocket extends Socket {
  _httpMessage?: ServerResponse | null;
  /** The parser holds the last request whose head it read until that request is answered. */
  parser?: { incoming: (IncomingMessage & { complete: boolean }) | null } | null;
}

/** The method at the start of a request: what the parser skips before one (blank lines), then a token and a space. */
const REQUEST_START = /^(?:\r\n)*([A-Z]+) /;

/**
 * Whether the request that failed may be a HEAD, whose answer never carries a body (CONTRACT §19):
 * a client reads none, and would read the body as the start of its next response. A request whose
 * head was read tells its method (its body broke the framing or came too slowly). Before that,
 * only the chunk that failed is at hand: its first bytes are the request's when they were the
 * connection's first, or look like a request line with no earlier request read from the chunk.
 * Anything else (a head over several chunks, pipelined requests) cannot be told: no body then.
 */
function mayBeHead(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: ServerSocket): boolean {
  const incoming = socket.parser?.incoming ?? null;
  if (incoming !== null && !incoming.complete) return incoming.method === 'HEAD';
  // Nothing arrived (an idle connection's 408): there is no request at all.
  if (socket.bytesRead === 0) return false;
  const packet = err.rawPacket;
  // A timeout keeps no bytes; a request already read from the chunk hides where this one starts.
  if (packet === undefined || incoming !== null) return true;
  const method = REQUEST_START.exec(packet.toString('latin1', 0, 32))?.[1];
  // The connection's first bytes: the request starts there, whatever they are.
  if (socket.bytesRead === packet.length) return method === 'HEAD';
  return method === undefined || method === 'HEAD';
}

/**
 * The http server's `clientError`: no request or reply exists, so a whole HTTP response with a
 * §1 body is written to the socket, which is then closed (the framing can no longer be trusted).
 * An answer that may be a HEAD's has the head only. Nothing is written when the client is gone or
 * a response has already begun on the socket.
 */
export function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as ServerSocket)._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    const failure = describeClientError(err);
    const requestId = randomUUID();
    const body = mayBeHead(err, socket)
      ? ''
      : JSON.stringify({ error: { code: failure.code, message: failure.message, request_id: requestId } });
    const framing =
      body === ''
        ? ''
        : `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    socket.write(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? 'Error'}\r\n` +
        framing +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    this.log.info({ reqId: requestId, status: failure.status, err: { code: err.code } }, 'client error');
  }
  socket.destroy();
}

/**
 * Fastify's `frameworkErrors`: a path that is not valid percent-encoding, or a parameter longer
 * than the router keeps (only possible past Node's header limit), fails before any route or
 * hook runs; it still answers §1 with the request id.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The path is not valid percent-encoding.'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is too long.'
        : 'The request could not be routed.';
  void reply
    .code(400)
    .header('X-Request-Id', request.id)
    .send(errorBody(request, 'validation_failed', message));
}
