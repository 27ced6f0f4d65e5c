import {
  isInitializeRequest, isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, parseJSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo, type JSONRPCMessage, type McpServer, type Transport,
} from '@modelcontextprotocol/server';

/** What an exchange answers: an HTTP status and a JSON-RPC body (none for 202). */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
}

const MAX_BATCH = 100;

function failure(status: number, code: number, message: string): ExchangeAnswer {
  return { status, body: { jsonrpc: '2.0', id: null, error: { code, message } } };
}

/**
 * One POST of the 2025 Streamable HTTP revisions as an SDK `Transport`: the parsed messages go
 * to the server, the responses come back as plain objects for Fastify to serialize. The SDK's
 * web-standard transport does the same over a `Request` and a `Response`, whose construction
 * and stream reading cost more than the tool call itself; the rules it applies are kept here
 * (Accept, batch size, message shape, one initialize, MCP-Protocol-Version, 202 for
 * notifications, JSON answers). Messages the server sends on its own (notifications, requests
 * to the client) are dropped, as in the SDK's JSON response mode.
 */
class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: { authInfo?: AuthInfo }) => void;
  private readonly answers = new Map<string | number, JSONRPCMessage>();
  private waiting: (() => void) | null = null;

  constructor(private readonly expected: Set<string | number>) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!(isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))) return;
    if (message.id === undefined || !this.expected.has(message.id)) return;
    this.answers.set(message.id, message);
    if (this.answers.size === this.expected.size) this.waiting?.();
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Delivers the messages and resolves with the responses, in request order. */
  deliver(messages: JSONRPCMessage[], authInfo: AuthInfo, order: (string | number)[]): Promise<JSONRPCMessage[]> {
    const done = new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    for (const message of messages) this.onmessage?.(message, { authInfo });
    if (this.answers.size === this.expected.size) this.waiting?.();
    return done.then(() => order.map((id) => this.answers.get(id)!));
  }
}

/**
 * Serves one JSON-RPC POST of the 2025 revisions on a fresh server. The server is dropped,
 * not closed, afterwards: nothing is left in flight, and closing would only build an error
 * for pending work that does not exist.
 */
export async function serveExchange(server: McpServer, body: unknown, headers: { accept?: string; protocolVersion?: string }, authInfo: AuthInfo): Promise<ExchangeAnswer> {
  if (!headers.accept?.includes('application/json') || !headers.accept.includes('text/event-stream')) {
    return failure(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
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
  const initialize = messages.some((message) => isInitializeRequest(message));
  if (initialize && messages.length > 1) return failure(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  if (!initialize && headers.protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(headers.protocolVersion)) {
    return failure(400, -32000, `Bad Request: Unsupported protocol version: ${headers.protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  const order = messages.filter((message) => isJSONRPCRequest(message)).map((message) => message.id);
  const transport = new ExchangeTransport(new Set(order));
  await server.connect(transport);
  if (order.length === 0) {
    for (const message of messages) transport.onmessage?.(message, { authInfo });
    return { status: 202 };
  }
  const answers = await transport.deliver(messages, authInfo, order);
  return { status: 200, body: batch ? answers : answers[0] };
}
