import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import type { Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import type { ReportInternal, ToolSpec } from './tool-table.js';
import { callTool, SERVER_INFO, visibleTool } from './tools.js';
import { acceptsAnswers, knownVersion, type ExchangeAnswer, type ExchangeHeaders } from './exchange.js';
import type { PlainToolCall } from './modern.js';

/** A tools/call plain enough to answer without a server; `modern` for one of the 2026-07-28 revision. */
export interface DirectCall {
  id: string | number;
  tool: ToolSpec;
  args: unknown;
  modern: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/** The id and params of a plain call of either revision: `params` holds only `keys`, a tool name and, if any, an object of arguments. */
function plainIdAndParams(id: unknown, params: unknown, keys: readonly string[]): params is Record<string, unknown> & { name: string } {
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || !isPlainObject(params) || !hasOnlyKeys(params, keys)) return false;
  return typeof params.name === 'string' && (params.arguments === undefined || isPlainObject(params.arguments));
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
  if (jsonrpc !== '2.0' || method !== 'tools/call' || !plainIdAndParams(id, params, ['name', 'arguments'])) return undefined;
  if (!acceptsAnswers(headers) || !knownVersion(headers)) return undefined;
  const tool = visibleTool(actor, params.name);
  return tool === undefined ? undefined : { id: id as string | number, tool, args: params.arguments, modern: false };
}

/** The `_meta` envelope keys of a plain 2026-07-28 call; the SDK's classification has checked their values. */
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY];

/**
 * For a 2026-07-28 tools/call that passed the SDK handler's checks (modern.ts), its server does
 * what it does for a 2025 call, plus: it validates the `_meta` envelope (the classification
 * already did, with the same rules) and encodes the result for the revision, which for
 * tools/call adds `resultType: "complete"` and the server's identity in `_meta` (the SDK's
 * encodeResult: no deleted fields and no cache fields concern tools/call). A call whose params
 * hold nothing but the tool's name, its arguments and those envelope keys is answered here the
 * same way; test/mcp/shared-modern-server.test.ts compares it with the SDK's handler.
 */
export function directModernCall(call: PlainToolCall, actor: Actor): DirectCall | undefined {
  const { id, params } = call.message;
  if (!plainIdAndParams(id, params, ['name', 'arguments', '_meta'])) return undefined;
  if (!isPlainObject(params._meta) || !hasOnlyKeys(params._meta, ENVELOPE_KEYS)) return undefined;
  const tool = visibleTool(actor, params.name);
  return tool === undefined ? undefined : { id, tool, args: params.arguments, modern: true };
}

/** The answer the SDK's server gives a direct call: the tool's result, encoded for its revision, under the caller's id. */
export async function answerDirectly(deps: Deps, actor: Actor, call: DirectCall, report: ReportInternal): Promise<ExchangeAnswer> {
  const result = await callTool(deps, call.tool, actor, call.args, report);
  const encoded = call.modern ? { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } } : result;
  return { status: 200, body: { jsonrpc: '2.0', id: call.id, result: encoded } };
}
