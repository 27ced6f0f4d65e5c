import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import type { Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { structuredJsonOf, type ReportInternal, type ToolSpec } from './tool-spec.js';
import { callTool, SERVER_INFO, visibleTool } from './tools.js';

/*
 * The MCP fast path: the one place that answers a request without the SDK's transport, and so
 * the one place that repeats checks the SDK makes. It takes only a single tools/call so plain
 * that every check of the SDK must pass, of a tool the credential sees, and answers it from the
 * tool table with what the SDK's server would answer; anything else is undefined here and the
 * SDK's transport serves it (sdk-transport.ts, route.ts).
 *
 * Why it exists: on a `get_task` call the SDK's transport (a web Request and Response per call,
 * a server built and connected per call, every message and result checked against its schemas)
 * costs more than the call itself; `npm run bench -- mcp` measures the same calls with and
 * without this path (MCP_FAST_PATH=off) in one run.
 *
 * Why it cannot drift from the SDK unseen: the SDK is pinned to an exact version in package.json,
 * and test/mcp/fast-path.test.ts sends every tool, succeeding and refused, in both protocol
 * eras, to a service with this path and to one without it, and wants the same answers.
 */

/** A tools/call the fast path answers: its JSON-RPC id, the tool, its arguments, and its era. */
export interface FastCall {
  id: string | number;
  tool: ToolSpec;
  args: unknown;
  modern: boolean;
}

/** The headers of a POST /mcp that the SDK's transports read. */
export interface DoorHeaders {
  accept?: string;
  contentType?: string;
  protocolVersion?: string;
  method?: string;
  name?: string;
}

/** The revision the SDK's handler serves sessionless. */
const MODERN_REVISION = '2026-07-28';

/** The `_meta` envelope keys of a plain 2026-07-28 call; the SDK's classification has checked their values. */
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY];
const MESSAGE_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const PARAMS_KEYS = ['name', 'arguments', '_meta'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

/** A single tools/call as plain as the fast path takes it, read from the body once. */
export interface PlainCall {
  id: string | number;
  name: string;
  /** Undefined or an object. */
  args: unknown;
  /** The 2026-07-28 envelope (`params._meta`, of only its keys), or undefined: a 2025 call. */
  envelope: Record<string, unknown> | undefined;
}

/**
 * The body as a plain tools/call of either era, or undefined: a JSON-RPC request of only
 * jsonrpc "2.0", an integer or string id, the method and params; params of only a tool name, an
 * object of arguments if any and, in 2026-07-28, a `_meta` of only the envelope's keys.
 */
export function plainCallOf(body: unknown): PlainCall | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, MESSAGE_KEYS)) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || !(typeof id === 'string' || Number.isSafeInteger(id)))
    return undefined;
  if (!isPlainObject(params) || !hasOnlyKeys(params, PARAMS_KEYS)) return undefined;
  const { name, arguments: args, _meta: envelope } = params;
  if (typeof name !== 'string' || !(args === undefined || isPlainObject(args))) return undefined;
  if (envelope !== undefined && !(isPlainObject(envelope) && hasOnlyKeys(envelope, ENVELOPE_KEYS))) return undefined;
  return { id: id as string | number, name, args, envelope };
}

/**
 * A tools/call of a 2025 session (the route checks the session after this). Such a call is also
 * what the SDK's classification (`classify`) routes to the 2025 era without looking further: a
 * JSON-RPC request whose params carry no `_meta` envelope, under no MCP-Protocol-Version header
 * of 2026-07-28 or later; so the route need not ask it (its schema checks of the message as a
 * response, an error and a request cost more than the call). The SDK's transport
 * (WebStandardStreamableHTTPServerTransport) checks Accept (406), Content-Type (415), the
 * message against the JSON-RPC schema (400) and the MCP-Protocol-Version header (400); its
 * server checks the request against the tools/call schema, calls our handler (tools.ts
 * `serveTools`), checks the result against CallToolResult and sends it unchanged. A plain call
 * (`plainCallOf`) without an envelope passes all of them.
 */
export function fastLegacyCall(call: PlainCall, headers: DoorHeaders, actor: Actor): FastCall | undefined {
  if (call.envelope !== undefined) return undefined;
  const { accept, contentType, protocolVersion } = headers;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream'))
    return undefined;
  if (!isJsonContentType(contentType ?? null)) return undefined;
  if (
    protocolVersion !== undefined &&
    (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) || protocolVersion >= MODERN_REVISION)
  )
    return undefined;
  const tool = visibleTool(actor, call.name);
  return tool === undefined ? undefined : { id: call.id, tool, args: call.args, modern: false };
}

/**
 * A 2026-07-28 tools/call. The SDK's handler (`createMcpHandler`) checks its Content-Type (415),
 * its classification (`outcome`, which also validates the `_meta` envelope), that it names a
 * revision the handler serves, the standard headers (MCP-Protocol-Version and Mcp-Method present
 * and equal to the body's, Mcp-Name equal to the tool's name; an encoded `=?base64?…?=` name is
 * left to the SDK to decode), then Mcp-Param-* headers and scope challenges of tools registered
 * with `registerTool` (ours are request handlers, so there are none). Its server then does what
 * it does for a 2025 call, and encodes the result for the revision: `resultType: "complete"` and
 * the server's identity in `_meta`. A plain call (`plainCallOf`) with its envelope passes all of it.
 */
export function fastModernCall(
  call: PlainCall,
  outcome: InboundClassificationOutcome,
  headers: DoorHeaders,
  actor: Actor,
): FastCall | undefined {
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.message.method !== 'tools/call')
    return undefined;
  if (outcome.classification.revision !== MODERN_REVISION || !isJsonContentType(headers.contentType ?? null))
    return undefined;
  if (headers.protocolVersion !== MODERN_REVISION || headers.method !== 'tools/call') return undefined;
  if (call.envelope === undefined || call.name.startsWith('=?') || headers.name !== call.name) return undefined;
  const tool = visibleTool(actor, call.name);
  return tool === undefined ? undefined : { id: call.id, tool, args: call.args, modern: true };
}

/** A classification the SDK gave a plain 2026-07-28 call, with what it depended on. */
interface KnownOutcome {
  protocolVersion: string | undefined;
  method: string | undefined;
  name: string | undefined;
  envelope: Record<string, unknown>;
  outcome: InboundClassificationOutcome;
}

/** How many tool names, and classifications under each, are kept (each is a few hundred bytes). */
const NAMES_KEPT = 64;
const OUTCOMES_KEPT_PER_NAME = 8;
const knownOutcomes = new Map<string, KnownOutcome[]>();

/**
 * Whether two values parsed from JSON are the same JSON, whatever their members' order.
 * (node:util's isDeepStrictEqual answers the same for them at four times the cost on this path.)
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if (!Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  return true;
}

/**
 * The SDK's classification (`classify` in messages.ts) of a plain 2026-07-28 tools/call
 * (`plainCallOf`, with an envelope). The classification of such a message depends on nothing
 * but its tool name, its envelope and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers
 * (the id and the arguments pass the SDK's JSON-RPC schema whatever they are), so it is asked
 * once for each of those seen, with a stand-in message of the same name and envelope, and kept;
 * its schema checks of the message as a response, an error and a request cost more than the
 * call. Undefined for any other message: the route asks the SDK.
 */
export function plainModernOutcome(
  call: PlainCall,
  body: unknown,
  headers: DoorHeaders,
  classify: (body: unknown, headers: DoorHeaders) => InboundClassificationOutcome,
): InboundClassificationOutcome | undefined {
  const envelope = call.envelope;
  if (envelope === undefined) return undefined;
  const { protocolVersion, method, name } = headers;
  let kept = knownOutcomes.get(call.name);
  let known = kept?.find(
    (k) =>
      k.protocolVersion === protocolVersion && k.method === method && k.name === name && sameJson(k.envelope, envelope),
  )?.outcome;
  if (known === undefined) {
    known = classify(
      { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: call.name, _meta: envelope } },
      headers,
    );
    if (kept === undefined) {
      if (knownOutcomes.size >= NAMES_KEPT) knownOutcomes.clear();
      knownOutcomes.set(call.name, (kept = []));
    }
    if (kept.length >= OUTCOMES_KEPT_PER_NAME) kept.shift();
    // A copy: the body goes on to the SDK when the fast path does not answer it.
    kept.push({ protocolVersion, method, name, envelope: structuredClone(envelope), outcome: known });
  }
  if (known.kind !== 'modern' || known.messageKind !== 'request') return undefined;
  return { ...known, message: body as typeof known.message };
}

/** What a 2026-07-28 result carries after the tool's own members: the SDK's `encodeResult` for the revision. */
const MODERN_TAIL = `,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: SERVER_INFO })}`;

/**
 * A tool's result as the SDK's server sends it, as JSON text: the server checks the result
 * against its CallToolResult schema and sends what the schema gives back, whose members are in
 * the schema's order (content, structuredContent, isError; then, for 2026-07-28, resultType and
 * `_meta` with the server's identity), inside `{result, jsonrpc, id}`. Our results hold only
 * those members (tool-spec.ts `ok` and `toolError`); the structured content's JSON is the one
 * `ok` made for its text block. test/mcp/fast-path.test.ts compares these bytes with the SDK's.
 */
export function encodeAnswer(call: FastCall, result: CallToolResult): string {
  let members = `{"content":${JSON.stringify(result.content)}`;
  if (result.structuredContent !== undefined) members += `,"structuredContent":${structuredJsonOf(result)}`;
  if (result.isError !== undefined) members += `,"isError":${JSON.stringify(result.isError)}`;
  if (call.modern) members += MODERN_TAIL;
  return `{"result":${members}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}

/** The answer the SDK's server gives the call, as JSON text: the tool's result, encoded for its era, under the caller's id. */
export async function answerFast(deps: Deps, actor: Actor, call: FastCall, report: ReportInternal): Promise<string> {
  return encodeAnswer(call, await callTool(deps, call.tool, actor, call.args, report));
}
