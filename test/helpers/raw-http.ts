import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the parsed head and JSON body (if any), and whether it closed. */
export interface RawAnswer {
  status: number | null;
  headers: Record<string, string>;
  body: any;
  text: string;
  closed: boolean;
}

/** Parses the first HTTP/1.1 response in `data` (Content-Length framed, as every answer of the service is). */
export function parseResponse(data: string, closed: boolean): RawAnswer {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, headers: {}, body: null, text: data, closed };
  const [statusLine, ...lines] = data.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = data.slice(end + 4);
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, text, closed };
}

/** True once `data` holds one whole response head and its Content-Length of body. */
function complete(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(data.slice(0, end + 2));
  return length !== null && Buffer.byteLength(data.slice(end + 4), 'latin1') >= Number(length[1]);
}

/**
 * Splits `data` into the responses to `methods`, in order, framed as a client frames them: a
 * HEAD's (or a 204's, 304's) ends with its head, any other's after Content-Length bytes, or at
 * the close when it has none. Whatever is left over is `rest`: bytes no client would expect.
 */
export function parseResponses(
  data: string,
  methods: readonly string[],
  closed: boolean,
): { answers: RawAnswer[]; rest: string } {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (const method of methods) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0 || !data.startsWith('HTTP/1.1 ', at)) break;
    const head = parseResponse(data.slice(at, end + 4), closed);
    const bodiless = method === 'HEAD' || head.status === 204 || head.status === 304;
    const length = head.headers['content-length'];
    const bodyEnd = bodiless ? end + 4 : length !== undefined ? end + 4 + Number(length) : closed ? data.length : -1;
    if (bodyEnd < 0 || bodyEnd > data.length) break;
    answers.push(parseResponse(data.slice(at, bodyEnd), closed));
    at = bodyEnd;
  }
  return { answers, rest: data.slice(at) };
}

export interface RawExchange {
  socket: Socket;
  /** Resolves with the responses to `methods` once all have arrived, or what arrived when the server closed or `waitMs` passed. */
  responses(
    methods: readonly string[],
    waitMs: number,
  ): Promise<{ answers: RawAnswer[]; rest: string; closed: boolean }>;
  /** Resolves with the first whole response, or what arrived when the server closed or `waitMs` passed. */
  answer(waitMs: number): Promise<RawAnswer>;
  /** Resolves true when the server has closed the connection within `waitMs`. */
  closes(waitMs: number): Promise<boolean>;
}

/**
 * Opens a real TCP connection and writes exactly `bytes`, for what fetch cannot send: broken
 * framing, a body shorter than its Content-Length, a client that goes quiet or leaves.
 */
export function rawRequest(baseUrl: string, bytes: string | Buffer): Promise<RawExchange> {
  const url = new URL(baseUrl);
  let data = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const until = <T>(waitMs: number, ready: () => boolean, value: () => T): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(value());
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(value());
      }, waitMs);
      waiters.add(check);
      check();
    });
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(bytes);
      resolve({
        socket,
        answer: (waitMs) =>
          until(
            waitMs,
            () => closed || complete(data),
            () => parseResponse(data, closed),
          ),
        responses: (methods, waitMs) =>
          until(
            waitMs,
            () => closed || parseResponses(data, methods, closed).answers.length === methods.length,
            () => ({ ...parseResponses(data, methods, closed), closed }),
          ),
        closes: (waitMs) =>
          until(
            waitMs,
            () => closed,
            () => closed,
          ),
      });
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      notify();
    });
    socket.on('close', () => {
      closed = true;
      notify();
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}
