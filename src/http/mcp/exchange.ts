import {
  isInitializeRequest, parseJSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo, type JSONRPCMessage, type JSONRPCRequest, type McpServer, type Transport,
} from '@modelcontextprotocol/server';

/** What an exchange answers: an HTTP status and a JSON-RPC body (none for 202). */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
}

const MAX_BATCH = 100;

/** Of messages parseJSONRPCMessage accepted, the requests: a method and an id (a notification has no id, an answer no method). */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

function failure(status: number, code: number, message: string): ExchangeAnswer {
  return { status, body: { jsonrpc: '2.0', id: null, error: { code, message } } };
}

/**
 * POSTs of the 2025 Streamable HTTP revisions as one SDK `Transport`, connected to its server
 * once: each exchange's parsed messages go to the server and the responses come back as plain
 * objects for Fastify to serialize. The SDK's web-standard transport does the same over a
 * `Request` and a `Response`, whose construction and stream reading cost more than the tool call
 * itself; the rules it applies are kept in `serveExchange` (Accept, batch size, message shape,
 * one initialize, MCP-Protocol-Version, 202 for notifications, JSON answers).
 *
 * A server may serve many exchanges at once, of different credentials, whose JSON-RPC ids
 * collide (every client counts from 1): each request goes in under an id of this transport's
 * own and its answer comes back to the exchange that sent it under the caller's id. The SDK
 * answers through the transport it captured when the request arrived, and with one transport
 * per server there is only one to capture. Messages the server sends on its own
 * (notifications, requests to the client) are dropped, as in the SDK's JSON response mode.
 */
class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: { authInfo?: AuthInfo }) => void;
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers matter, and they come from our own server: their id is enough to know them
    // (the SDK's guards would check the whole result against its schema once more).
    const id = (message as { id?: unknown }).id;
    if (typeof id !== 'number' || !('result' in message || 'error' in message)) return;
    const settle = this.waiting.get(id);
    if (settle === undefined) return;
    this.waiting.delete(id);
    settle(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Delivers the messages and resolves with the answers to the requests among them, in request order. */
  exchange(messages: JSONRPCMessage[], authInfo: AuthInfo): Promise<JSONRPCMessage[]> {
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      if (!isRequest(message)) {
        this.onmessage?.(message, { authInfo });
        continue;
      }
      const id = this.nextId++;
      const callerId = message.id;
      answers.push(new Promise((resolve) => this.waiting.set(id, (answer) => resolve({ ...answer, id: callerId } as JSONRPCMessage))));
      this.onmessage?.({ ...message, id }, { authInfo });
    }
    return Promise.all(answers);
  }
}

/** A server with its transport, ready for any number of exchanges. */
export interface ConnectedServer {
  server: McpServer;
  transport: ExchangeTransport;
}

export async function connectServer(server: McpServer): Promise<ConnectedServer> {
  const transport = new ExchangeTransport();
  await server.connect(transport);
  return { server, transport };
}

/**
 * Serves one JSON-RPC POST of the 2025 revisions. A server made for this one exchange is dropped,
 * not closed, afterwards: nothing is left in flight, and closing would only build an error for
 * pending work that does not exist.
 */
export async function serveExchange(connected: ConnectedServer | Promise<ConnectedServer>, body: unknown, headers: { accept?: string; protocolVersion?: string }, authInfo: AuthInfo): Promise<ExchangeAnswer> {
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
  // The method first: the SDK's guard parses the whole message against the initialize schema.
  const initialize = messages.some((message) => (message as { method?: unknown }).method === 'initialize' && isInitializeRequest(message));
  if (initialize && messages.length > 1) return failure(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  if (!initialize && headers.protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(headers.protocolVersion)) {
    return failure(400, -32000, `Bad Request: Unsupported protocol version: ${headers.protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  const { transport } = await connected;
  const answers = await transport.exchange(messages, authInfo);
  if (answers.length === 0) return { status: 202 };
  return { status: 200, body: batch ? answers : answers[0] };
}
