import { expect } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

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
export async function connectMcp(
  baseUrl: string,
  token: string,
  options: { modern?: boolean; sessionId?: string } = {},
): Promise<McpConnection> {
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

/**
 * The official SDK client of the 1.x line, the one most MCP hosts run today: after tools/list it
 * checks every structured content against the tool's `outputSchema`, errors included.
 */
export async function connectSdk1(
  baseUrl: string,
  token: string,
): Promise<{ client: Sdk1Client; close(): Promise<void> }> {
  const client = new Sdk1Client({ name: 'vitest-agent-sdk1', version: '1.0.0' });
  await client.connect(
    new Sdk1Transport(new URL('/mcp', baseUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return { client, close: () => client.close() };
}

/** CONTRACT §1's error object as a tool error carries it. */
export interface ToolErrorBody {
  code: string;
  message: string;
  details?: unknown[];
}

/**
 * The error of a tool error result, checked to be as CONTRACT §17 "Tool errors" says: `isError`,
 * one text block holding `{"error": {code, message, details?}}` as JSON, no structured content.
 */
export function toolErrorOf(answer: object): ToolErrorBody {
  const result = answer as { isError?: unknown; content?: unknown; structuredContent?: unknown };
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const content = result.content as { type: string; text?: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  const parsed = JSON.parse(content[0]!.text!) as { error: ToolErrorBody };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).filter((key) => !['code', 'message', 'details'].includes(key))).toEqual([]);
  expect(parsed.error).toMatchObject({ code: expect.stringMatching(/^[a-z][a-z0-9_]*$/), message: expect.any(String) });
  return parsed.error;
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
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-agent', version: '0.1' } },
};
