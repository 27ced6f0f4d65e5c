import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const MODERN = '2026-07-28';

export interface McpConnection {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/**
 * The official SDK client over a real socket, as an agent would connect: the personal token as
 * Bearer, the 2025 session protocol by default or the sessionless 2026-07-28 revision when pinned.
 */
export async function connectMcp(baseUrl: string, token: string, options: { modern?: boolean; sessionId?: string } = {}): Promise<McpConnection> {
  const client = new Client(
    { name: 'vitest-agent', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
  });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** One raw JSON-RPC POST to /mcp, for what the SDK client would never send. */
export async function rawMcp(baseUrl: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const initializeMessage = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-agent', version: '0.1' } },
};
