import type { Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import type { ReportInternal, ToolSpec } from './tool-table.js';
import { callTool, visibleTool } from './tools.js';
import { acceptsAnswers, knownVersion, type ExchangeAnswer, type ExchangeHeaders } from './exchange.js';

/** A 2025 tools/call plain enough to answer without a server. */
export interface DirectCall {
  id: string | number;
  tool: ToolSpec;
  args: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/**
 * For a tools/call of the 2025 revisions the SDK's server only checks and forwards: it checks
 * the JSON-RPC message and the request against their schemas, calls our handler (tools.ts
 * `serveTools`), checks the result against the CallToolResult schema and sends it as it is (the
 * 2025 encoding leaves tools/call results alone). Its checks and its machinery for one message
 * cost about a third of the call. A request plain enough that each of its checks must pass
 * (only jsonrpc "2.0", an integer or string id, the method and params; params only a name of a
 * tool this credential sees and an object of arguments; the headers the transport requires) is
 * answered here by the same handler code, with the same answer: the results our tools make
 * always pass the result schema, as test/mcp/direct-call.test.ts checks against the server.
 * Anything else, an unknown or hidden tool included, is for the server; this is undefined.
 */
export function directCall(body: unknown, headers: ExchangeHeaders, actor: Actor): DirectCall | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || !hasOnlyKeys(params, ['name', 'arguments']) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (!acceptsAnswers(headers) || !knownVersion(headers)) return undefined;
  const tool = visibleTool(actor, params.name);
  return tool === undefined ? undefined : { id: id as string | number, tool, args: params.arguments };
}

/** The answer the SDK's server gives a direct call: the tool's result under the caller's id. */
export async function answerDirectly(deps: Deps, actor: Actor, call: DirectCall, report: ReportInternal): Promise<ExchangeAnswer> {
  const result = await callTool(deps, call.tool, actor, call.args, report);
  return { status: 200, body: { jsonrpc: '2.0', id: call.id, result } };
}
