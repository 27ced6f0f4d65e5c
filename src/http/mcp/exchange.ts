import {
  isInitializeRequest, parseJSONRPCMessage, PerRequestHTTPServerTransport, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo, type JSONRPCMessage, type JSONRPCRequest, type McpServer, type MessageClassification, type MessageExtraInfo,
} from '@modelcontextprotocol/server';

/** What an exchange answers: an HTTP status and a JSON-RPC body (none for 202). */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
}

export const MAX_BATCH = 100;

/** Of messages parseJSONRPCMessage accepted, the requests: a method and an id (a notification has no id, an answer no method). */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

function failure(status: number, code: number, message: string): ExchangeAnswer {
  return { status, body: { jsonrpc: '2.0', id: null, error: { code, message } } };
}

/**
 * POSTs as one SDK `Transport`, connected to its server once: each exchange's parsed messages go
 * to the server and the responses come back as plain objects for Fastify to serialize. The SDK's
 * web-standard transports do the same over a `Request` and a `Response`, whose construction and
 * stream reading cost more than the tool call itself; the rules they apply are kept in
 * `serveExchange` (2025: Accept, batch size, message shape, one initialize, MCP-Protocol-Version,
 * 202 for notifications, JSON answers) and `serveModernCall` (2026-07-28: the HTTP status of an
 * error the server sent before any handler ran).
 *
 * A server may serve many exchanges at once, of different credentials, whose JSON-RPC ids
 * collide (every client counts from 1): each request goes in under an id of this transport's
 * own and its answer comes back to the exchange that sent it under the caller's id. The SDK
 * answers through the transport it captured when the request arrived, and with one transport
 * per server there is only one to capture. Messages the server sends on its own
 * (notifications, requests to the client) are dropped, as in the SDK's JSON response mode.
 *
 * It is a per-request transport of the SDK only for what connecting to one does: the server
 * takes its revision, so a transport made with 2026-07-28 binds its server to that era once,
 * where the SDK's handler builds and binds a server for every request. Made without a revision
 * it binds nothing, and its server answers the 2025 revisions as any server does.
 */
class ExchangeTransport extends PerRequestHTTPServerTransport {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  /** True while the server takes a message in: what it answers then, it answered before any handler ran. */
  private delivering = false;

  constructor(revision?: string) {
    super({ classification: revision === undefined ? { era: 'legacy' } : { era: 'modern', revision }, responseMode: 'json' });
  }

  override async start(): Promise<void> {}

  override async send(message: JSONRPCMessage): Promise<void> {
    // Only answers matter, and they come from our own server: their id is enough to know them
    // (the SDK's guards would check the whole result against its schema once more).
    const id = (message as { id?: unknown }).id;
    if (typeof id !== 'number' || !('result' in message || 'error' in message)) return;
    const settle = this.waiting.get(id);
    if (settle === undefined) return;
    this.waiting.delete(id);
    settle({ message, beforeHandler: this.delivering });
  }

  override async close(): Promise<void> {
    this.onclose?.();
  }

  /** Delivers the messages and resolves with the answers to the requests among them, in request order. */
  exchange(messages: JSONRPCMessage[], extra: MessageExtraInfo): Promise<Answer[]> {
    const answers: Promise<Answer>[] = [];
    for (const message of messages) {
      if (!isRequest(message)) {
        this.deliver(message, extra);
        continue;
      }
      const id = this.nextId++;
      const callerId = message.id;
      answers.push(new Promise((resolve) => this.waiting.set(id, ({ message: answer, beforeHandler }) => resolve({ message: { ...answer, id: callerId } as JSONRPCMessage, beforeHandler }))));
      this.deliver({ ...message, id }, extra);
    }
    return Promise.all(answers);
  }

  private deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.delivering = true;
    try {
      this.onmessage?.(message, extra);
    } finally {
      this.delivering = false;
    }
  }
}

/** An answer of the server, and whether it came before any handler ran (a refusal of the SDK's dispatch). */
interface Answer {
  message: JSONRPCMessage;
  beforeHandler: boolean;
}

/** A server with its transport, ready for any number of exchanges. */
export interface ConnectedServer {
  server: McpServer;
  transport: ExchangeTransport;
}

/** Connects a server for exchanges of the 2025 revisions, or, given a 2026-07-28 revision, binds it to that one. */
export async function connectServer(server: McpServer, revision?: string): Promise<ConnectedServer> {
  const transport = new ExchangeTransport(revision);
  await server.connect(transport);
  return { server, transport };
}

/** The headers the 2025 transport rules read. */
export interface ExchangeHeaders {
  accept?: string;
  protocolVersion?: string;
}

/** Whether the client takes both answer types, as the 2025 revisions require of it. */
export function acceptsAnswers(headers: ExchangeHeaders): boolean {
  return headers.accept !== undefined && headers.accept.includes('application/json') && headers.accept.includes('text/event-stream');
}

/** Whether the MCP-Protocol-Version a request after initialize names, if any, is one of the 2025 revisions. */
export function knownVersion(headers: ExchangeHeaders): boolean {
  return headers.protocolVersion === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(headers.protocolVersion);
}

/**
 * Serves one JSON-RPC POST of the 2025 revisions. A server made for this one exchange is dropped,
 * not closed, afterwards: nothing is left in flight, and closing would only build an error for
 * pending work that does not exist.
 */
export async function serveExchange(connected: ConnectedServer | Promise<ConnectedServer>, body: unknown, headers: ExchangeHeaders, authInfo: AuthInfo): Promise<ExchangeAnswer> {
  if (!acceptsAnswers(headers)) return failure(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  const batch = Array.isArray(body);
  const raw: unknown[] = batch ? body : [body];
  if (raw.length === 0) return failure(400, -32600, 'Invalid Request: an empty batch');
  if (raw.length > MAX_BATCH) return failure(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
  let messages: JSONRPCMessage[];
  try {
    messages = raw.map((message) => parseJSONRPCMessage(message));
  } catch {
    return failure(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  // The method first: the SDK's guard parses the whole message against the initialize schema.
  const initialize = messages.some((message) => (message as { method?: unknown }).method === 'initialize' && isInitializeRequest(message));
  if (initialize && messages.length > 1) return failure(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  if (!initialize && !knownVersion(headers)) {
    return failure(400, -32000, `Bad Request: Unsupported protocol version: ${headers.protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  const { transport } = await connected;
  const answers = (await transport.exchange(messages, { authInfo })).map((answer) => answer.message);
  if (answers.length === 0) return { status: 202 };
  return { status: 200, body: batch ? answers : answers[0] };
}

/**
 * The HTTP status the SDK's per-request transport gives a 2026-07-28 JSON-RPC error that the
 * server sent before any handler ran (its dispatch refusing the request); a handler's errors are
 * answered with 200, except a missing client capability, which is 400 wherever it comes from.
 */
const STATUS_OF_DISPATCH_ERROR: Record<number, number> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
};

/**
 * Serves one 2026-07-28 request, already through the checks of the SDK's handler (modern.ts), on
 * a server bound to its revision: the server validates the request's `_meta` envelope and its
 * params, runs the handler and encodes the result for that revision, as on a server of its own.
 */
export async function serveModernCall(connected: ConnectedServer | Promise<ConnectedServer>, message: JSONRPCRequest, classification: MessageClassification, authInfo: AuthInfo): Promise<ExchangeAnswer> {
  const { transport } = await connected;
  const [answer] = await transport.exchange([message], { authInfo, classification });
  const { message: body, beforeHandler } = answer!;
  const code = 'error' in body ? body.error.code : undefined;
  const status = code === undefined ? 200
    : code === ProtocolErrorCode.MissingRequiredClientCapability ? 400
    : beforeHandler ? STATUS_OF_DISPATCH_ERROR[code] ?? 200 : 200;
  return { status, body };
}
