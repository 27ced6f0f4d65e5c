import { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { ServerFocus } from './tools.js';

/** What the route needs to know of a JSON-RPC body before the SDK sees it; never its arguments. */
export function messagesOf(body: unknown): { method?: string; params?: Record<string, unknown> }[] {
  const list = Array.isArray(body) ? body : [body];
  return list.filter((m): m is { method?: string; params?: Record<string, unknown> } => typeof m === 'object' && m !== null);
}

/** `initialize`, `tools/list`, `tools/call search`: the journal's operation, never arguments. */
export function operationOf(body: unknown): string {
  const [first] = messagesOf(body);
  const method = typeof first?.method === 'string' ? first.method : 'response';
  const tool = method === 'tools/call' && typeof first?.params?.name === 'string' ? ` ${first.params.name.slice(0, 64)}` : '';
  return `${method.slice(0, 64)}${tool}`;
}

/** A single tools/call needs only its tool; a resources/* request no tools; anything else all. */
export function focusOf(body: unknown): ServerFocus {
  if (Array.isArray(body)) return {};
  const [message] = messagesOf(body);
  if (message?.method === 'tools/call' && typeof message.params?.name === 'string') return { tool: message.params.name, resources: false };
  if (typeof message?.method === 'string' && message.method.startsWith('resources/')) return { tool: '', resources: true };
  return {};
}

export function isInitialize(body: unknown): boolean {
  return !Array.isArray(body) && messagesOf(body)[0]?.method === 'initialize';
}

/** 2025-era traffic (sessions, served here) or the 2026-07-28 revision (served by the SDK's handler). */
export function isLegacy(body: unknown, headers: { protocolVersion?: string; method?: string; name?: string }): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST', body, protocolVersionHeader: headers.protocolVersion, mcpMethodHeader: headers.method, mcpNameHeader: headers.name,
  });
  return outcome.kind === 'legacy';
}
