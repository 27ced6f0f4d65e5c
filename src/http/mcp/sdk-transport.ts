import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServer } from '@modelcontextprotocol/server';

/** What /mcp answers: an HTTP status and a JSON-RPC body (none for 202). */
export interface McpAnswer {
  status: number;
  body?: unknown;
}

type Message = Record<string, unknown>;

function isRequest(message: unknown): message is Message & { id: string | number } {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const { method, id } = message as Message;
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/**
 * Serves one POST of the 2025 revisions with the SDK's own transport, stateless and in JSON
 * mode, on a server of its own: the transport applies every rule of the revision (Accept,
 * Content-Type, message shape, batch size, one initialize, MCP-Protocol-Version, 202 for
 * notifications). Sessions are not its business: the route mints them, keeps them in the
 * database and checks them before this runs, so any instance serves any session.
 *
 * The answer comes back parsed, for Fastify to send as every other JSON answer, with a refusal
 * written as every other JSON-RPC error here (`jsonrpc`, `id`, `error`). A batch is answered
 * with an array even when one request in it got an answer (the transport then sends the bare
 * object). The transport pairs answers with requests by id, so a batch that repeats an id (every
 * client counts from 1, and JSON-RPC does not forbid it) would lose answers: each request goes in
 * under its place in the batch and its answer comes back under its own id.
 */
export async function serveLegacy(
  server: McpServer,
  request: Request,
  body: unknown,
  authInfo: AuthInfo,
): Promise<McpAnswer> {
  const batch = Array.isArray(body) ? body : undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const parsedBody =
      batch === undefined
        ? body
        : batch.map((message, place) => (isRequest(message) ? { ...message, id: place } : message));
    const response = await transport.handleRequest(request, { parsedBody, authInfo });
    const text = await response.text();
    if (text === '') return { status: response.status };
    const answer = JSON.parse(text) as Message | Message[];
    if (response.status >= 400 && !Array.isArray(answer))
      return { status: response.status, body: { jsonrpc: answer.jsonrpc, id: answer.id, error: answer.error } };
    if (batch === undefined) return { status: response.status, body: answer };
    const answers = (Array.isArray(answer) ? answer : [answer]).map((one) =>
      typeof one.id === 'number' ? { ...one, id: (batch[one.id] as Message).id } : one,
    );
    return { status: response.status, body: answers };
  } finally {
    await server.close();
  }
}
