import { classifyInboundRequest, type InboundClassificationOutcome } from '@modelcontextprotocol/server';
import type { ServerFocus } from './tools.js';

/** What the route needs to know of a JSON-RPC body before the SDK sees it; never its arguments. */
export interface BodyOutline {
  batch: boolean;
  /** The first message's method, when it has one. */
  method: string | undefined;
  /** `tools/call`'s tool name. */
  tool: string | undefined;
  params: Record<string, unknown>;
  /** The first message's JSON-RPC id, when it has a usable one. */
  id: string | number | null;
}

export function outlineOf(body: unknown): BodyOutline {
  const batch = Array.isArray(body);
  const first: unknown = batch ? body[0] : body;
  const message =
    typeof first === 'object' && first !== null ? (first as { method?: unknown; params?: unknown; id?: unknown }) : {};
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const method = typeof message.method === 'string' ? message.method : undefined;
  const params =
    typeof message.params === 'object' && message.params !== null ? (message.params as Record<string, unknown>) : {};
  const tool = method === 'tools/call' && typeof params.name === 'string' ? params.name : undefined;
  return { batch, method, tool, params, id };
}

/** `initialize`, `tools/list`, `tools/call search`: the journal's operation. */
export function operationOf(outline: BodyOutline): string {
  return `${(outline.method ?? 'response').slice(0, 64)}${outline.tool !== undefined ? ` ${outline.tool.slice(0, 64)}` : ''}`;
}

/** A CONTRACT §1 failure as a JSON-RPC error object: its code and the request id ride in `data`. */
export function rpcErrorOf(failure: { status: number; code: string; message: string }, requestId: string) {
  const code = failure.code === 'invalid_json' ? -32700 : failure.status === 400 ? -32600 : -32001;
  return { code, message: `${failure.code}: ${failure.message}`, data: { code: failure.code, request_id: requestId } };
}

/** A single tools/call needs no resources; a resources/* request no tools; anything else all. */
export function focusOf(outline: BodyOutline): ServerFocus {
  if (outline.batch) return {};
  if (outline.tool !== undefined) return { resources: false };
  if (outline.method?.startsWith('resources/')) return { tools: false };
  return {};
}

/**
 * Why initialize's clientInfo cannot be kept, or null: its name and version are stored with the
 * session and in the journal, and no store keeps text with a NUL character (PostgreSQL refuses it).
 */
export function clientInfoProblem(outline: BodyOutline): string | null {
  const info = outline.params.clientInfo;
  if (typeof info !== 'object' || info === null) return null;
  for (const key of ['name', 'version'] as const) {
    const value = (info as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.includes('\u0000'))
      return `Invalid params: clientInfo.${key} must not contain a NUL character.`;
  }
  return null;
}

export function isInitialize(outline: BodyOutline): boolean {
  return !outline.batch && outline.method === 'initialize';
}

/**
 * How the SDK routes a POST: `legacy` for 2025-era traffic (sessions, served here), `modern` for
 * the 2026-07-28 revision, or a refusal of its ladder (answered by the SDK's handler).
 */
export function classify(
  body: unknown,
  headers: { protocolVersion?: string; method?: string; name?: string },
): InboundClassificationOutcome {
  return classifyInboundRequest({
    httpMethod: 'POST',
    body,
    protocolVersionHeader: headers.protocolVersion,
    mcpMethodHeader: headers.method,
    mcpNameHeader: headers.name,
  });
}
