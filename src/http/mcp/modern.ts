import { isJsonContentType, type InboundClassificationOutcome, type JSONRPCRequest, type MessageClassification } from '@modelcontextprotocol/server';

/** The revision a shared server serves sessionless (tools.ts `toolServerFor`): the one the SDK's handler serves. */
export const MODERN_REVISION = '2026-07-28';

/** A 2026-07-28 tools/call through every check the SDK's handler makes before its server sees it. */
export interface PlainToolCall {
  message: JSONRPCRequest;
  classification: MessageClassification;
}

/** The headers of a POST /mcp that the SDK's handler reads. */
export interface ModernHeaders {
  contentType?: string;
  protocolVersion?: string;
  method?: string;
  name?: string;
}

/**
 * The SDK's handler for 2026-07-28 (`createMcpHandler`) checks, before a server sees a request:
 * its Content-Type (415), its classification (done by the caller, `outcome`), that it names a
 * revision the handler serves, the standard headers (MCP-Protocol-Version and Mcp-Method present
 * and equal to the body's, Mcp-Name present and equal to the tool's name), the client
 * capabilities its method requires (none for tools/call), then the Mcp-Param-* headers and the
 * scope challenges of tools registered with `McpServer.registerTool` (ours are served by request
 * handlers, so there are none). A tools/call that passes all of them this plainly can go to a
 * shared server bound to its revision; for anything else this is undefined and the SDK's handler
 * answers, refusals included, exactly as before.
 */
export function plainToolCall(outcome: InboundClassificationOutcome, headers: ModernHeaders): PlainToolCall | undefined {
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.message.method !== 'tools/call') return undefined;
  if (outcome.classification.revision !== MODERN_REVISION || !isJsonContentType(headers.contentType ?? null)) return undefined;
  const name = outcome.message.params?.name;
  // A name that starts like an encoded header value (`=?base64?…?=`) is left to the SDK to decode and compare.
  if (typeof name !== 'string' || name.startsWith('=?') || headers.name !== name) return undefined;
  if (headers.protocolVersion !== MODERN_REVISION || headers.method !== 'tools/call') return undefined;
  return { message: outcome.message, classification: outcome.classification };
}
