import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createMcpHandler,
  localhostAllowedOrigins,
  validateOriginHeader,
  type AuthInfo,
  type InboundClassificationOutcome,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import type { Deps } from '../../domain/deps.js';
import type { Actor } from '../../domain/actor.js';
import { endMcpSession, findMcpSession, openMcpSession } from '../../domain/agents/mcp-sessions.js';
import { countMore, header, makePipeline } from '../pipeline.js';
import { access } from '../access.js';
import { describeFailure, INTERNAL_MESSAGE } from '../errors.js';
import { clientOf } from '../journal-hook.js';
import { buildMcpServer, type CallChanges } from './tools.js';
import { writtenChangeId } from '../../domain/change.js';
import type { ReportInternal } from './tool-spec.js';
import { classify, clientInfoProblem, focusOf, isInitialize, operationOf, outlineOf, rpcErrorOf } from './messages.js';
import { allowsBatches, BATCH_REFUSED, initializeRevision, serveBatch } from './batch.js';
import {
  answerFast,
  fastLegacyCall,
  fastModernCall,
  plainCallOf,
  plainModernOutcome,
  type DoorHeaders,
} from './fast-path.js';
import { serveLegacy } from './sdk-transport.js';

const SESSION_HEADER = 'mcp-session-id';

/** What `classify` answers for a plain 2025 tools/call (fast-path.ts fastLegacyCall). */
const PLAIN_LEGACY: InboundClassificationOutcome = { kind: 'legacy', reason: 'no-claim' };

/** The CONTRACT §1 code of a JSON-RPC failure that only has an HTTP status. */
const CODE_OF_STATUS: Record<number, string> = {
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'unsupported_media_type',
  415: 'unsupported_media_type',
};

/**
 * Every JSON-RPC error answered with an HTTP failure carries §1's code and the request id in
 * `error.data`, whichever layer made it (this route, the exchange, the SDK's handler).
 */
function withRequestId(reply: FastifyReply, status: number, body: unknown): unknown {
  const error = (body as { error?: { data?: unknown } } | null)?.error;
  if (status < 400 || error === undefined || error === null || typeof error !== 'object') return body;
  const data = typeof error.data === 'object' && error.data !== null ? (error.data as Record<string, unknown>) : {};
  if (data.request_id !== undefined) return body;
  return {
    ...(body as object),
    error: {
      ...error,
      data: { code: CODE_OF_STATUS[status] ?? 'validation_failed', ...data, request_id: reply.request.id },
    },
  };
}

/** A JSON-RPC error answer with an HTTP status, for failures before or around the SDK. */
function rpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  data?: unknown,
  id: string | number | null = null,
) {
  return reply
    .code(status)
    .type('application/json')
    .send(
      withRequestId(reply, status, {
        jsonrpc: '2.0',
        id,
        error: { code, message, ...(data !== undefined ? { data } : {}) },
      }),
    );
}

/** The Fastify request as the web-standard Request the SDK's handler and transport serve; the body goes as `parsedBody`. */
function webRequest(request: FastifyRequest, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length' || name === 'host' || name === 'connection') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(new URL('/mcp', base), { method: request.method, headers });
}

async function send(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  for (const [name, value] of response.headers) if (name !== 'content-length') reply.header(name, value);
  const text = await response.text();
  if (response.status >= 400 && text.startsWith('{'))
    return reply.send(withRequestId(reply, response.status, JSON.parse(text)));
  return reply.send(text === '' ? undefined : text);
}

/**
 * The SDK prints a console notice that JSON mode drops mid-call notifications. Our tools send
 * none, and CONTRACT §9 wants JSON answers, so the notice is only noise on every start.
 */
function withoutJsonModeNotice<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("responseMode: 'json'")) warn(...args);
  };
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

/**
 * The actor, where a tool's internal failure is logged, and the changes of the request's tool
 * calls travel to the server factory with the auth info.
 */
function authInfoOf(actor: Actor, report: ReportInternal, changes: CallChanges): AuthInfo {
  return {
    token: '',
    clientId: actor.credentialId ?? '',
    scopes: [...actor.scopes],
    extra: { actor, report, changes },
  };
}

/** The change a journaled call wrote: the fast path's (the request's own), else its tool call's. */
function changeOfCall(actor: Actor, changes: CallChanges, id?: unknown): string | null {
  if (id !== undefined) return writtenChangeId(changes.get(id));
  for (const change of changes.values()) if (change.written) return change.id;
  return writtenChangeId(actor.change);
}

function reporter(request: FastifyRequest): ReportInternal {
  return (err) => {
    const error = err instanceof Error ? err : new Error(String(err));
    request.log.error(
      { err: { type: error.name, message: error.message, stack: error.stack } },
      'unhandled MCP tool error',
    );
  };
}

/**
 * Streamable HTTP at /mcp on the official SDK, with JSON responses. Sessions of the 2025
 * protocol revisions are ours: minted on initialize, kept in the database, bound to the
 * credential; no server remembers a client between requests, so any instance (or a restarted
 * one) serves any session, each request on the SDK's stateless transport (sdk-transport.ts).
 * 2026-07-28 requests carry their own envelope and are served without a session by the SDK's
 * handler. A plain single tools/call, the bulk of agent traffic, is answered by the fast path
 * (fast-path.ts) unless MCP_FAST_PATH=off, which exists only to measure what it saves.
 */
export const mcpRoutes = (deps: Deps) => async (app: FastifyInstance) => {
  const allowedOrigins = [new URL(deps.config.publicUrl).hostname, ...localhostAllowedOrigins()];
  const modern = withoutJsonModeNotice(() =>
    createMcpHandler((ctx: McpRequestContext) => buildMcpServer(deps, ctx.authInfo?.extra?.actor as Actor), {
      legacy: 'reject',
      responseMode: 'json',
    }),
  );
  app.addHook('onClose', async () => modern.close());
  const fastPath = deps.config.mcpFastPath;

  app.setErrorHandler(function mcpError(error: Error, request, reply) {
    const failure = describeFailure(error, reply);
    if (failure === null) {
      request.log.error(
        { err: { type: error.name, message: error.message, stack: error.stack } },
        'unhandled MCP error',
      );
      return rpcError(reply, 500, -32603, INTERNAL_MESSAGE);
    }
    const { code, message, data } = rpcErrorOf(failure, request.id);
    return rpcError(reply, failure.status, code, message, data);
  });
  app.addHook('onRequest', makePipeline(deps));

  const config = { access: access.token, idempotency: 'ignore' as const };
  const hidden = { hide: true };

  app.post('/mcp', { config, schema: hidden }, async (request, reply) => {
    const started = performance.now();
    const actor: Actor = { ...request.actor!, via: 'mcp' };
    const origin = validateOriginHeader(header(request, 'origin'), allowedOrigins);
    if (!origin.ok) return rpcError(reply, 403, -32000, origin.message);
    const body = request.body;
    const outline = outlineOf(body);
    let client = request.credentialClient ?? clientOf(request);
    const changes: CallChanges = new Map();
    const journal = (status: number, operation = operationOf(outline), messageId?: unknown) =>
      deps.journal.record(actor.user.id, {
        surface: 'mcp',
        operation,
        status,
        duration_ms: performance.now() - started,
        token_id: actor.credentialId ?? '',
        client,
        change_id: changeOfCall(actor, changes, messageId),
      });
    const answer = (status: number, payload: unknown) => {
      reply.code(status);
      return payload === undefined ? reply.send() : reply.send(withRequestId(reply, status, payload));
    };
    // The fast path's answer, already JSON, with the type Fastify gives JSON it serializes.
    const answerText = (text: string) => reply.code(200).type('application/json; charset=utf-8').send(text);

    const headers: DoorHeaders = {
      accept: header(request, 'accept'),
      contentType: header(request, 'content-type'),
      protocolVersion: header(request, 'mcp-protocol-version'),
      method: header(request, 'mcp-method'),
      name: header(request, 'mcp-name'),
    };
    const call = fastPath ? plainCallOf(body) : undefined;
    // A plain 2025 tools/call is what the SDK's classification routes to the 2025 era (fast-path.ts).
    const plain = call !== undefined ? fastLegacyCall(call, headers, actor) : undefined;
    const outcome =
      plain !== undefined
        ? PLAIN_LEGACY
        : ((call !== undefined ? plainModernOutcome(call, body, headers, classify) : undefined) ??
          classify(body, headers));
    if (outcome.kind !== 'legacy') {
      const fast = call !== undefined ? fastModernCall(call, outcome, headers, actor) : undefined;
      if (fast !== undefined) {
        const text = await answerFast(deps, actor, fast, reporter(request));
        journal(200);
        return answerText(text);
      }
      const response = await modern.fetch(webRequest(request, deps.config.publicUrl), {
        parsedBody: body,
        authInfo: authInfoOf(actor, reporter(request), changes),
      });
      journal(response.status);
      return send(reply, response);
    }
    const initialize = isInitialize(outline);
    const problem = initialize ? clientInfoProblem(outline) : null;
    if (problem !== null) return rpcError(reply, 400, -32602, problem, undefined, outline.id);
    // A batch is refused, nothing run, where its revision has none (CONTRACT §19): the one an
    // initialize in it asks for, else its session's.
    const asked = outline.batch ? initializeRevision(body as unknown[]) : undefined;
    const refuseBatch = () => {
      journal(400, 'batch');
      return rpcError(reply, 400, -32600, BATCH_REFUSED);
    };
    if (asked !== undefined && !allowsBatches(asked)) return refuseBatch();
    if (!initialize) {
      const id = header(request, SESSION_HEADER);
      if (id === undefined || id === '')
        return rpcError(reply, 400, -32600, 'Bad Request: Mcp-Session-Id header is required; start with initialize.');
      // A personal token's live sessions may be kept with its lookup (CredentialCache).
      const found = await findMcpSession(deps, actor, id, request.actor!.via === 'token');
      if (!found.ok)
        return rpcError(
          reply,
          404,
          -32001,
          'Session not found: it ended, expired or belongs to another credential; initialize again.',
        );
      client = request.credentialClient ?? found.session.clientName;
      if (outline.batch && asked === undefined && !allowsBatches(found.session.protocolVersion)) return refuseBatch();
    }
    const serve = (messages: unknown) =>
      serveLegacy(
        buildMcpServer(deps, actor, focusOf(outlineOf(messages))),
        webRequest(request, deps.config.publicUrl),
        messages,
        authInfoOf(actor, reporter(request), changes),
      );
    if (outline.batch) {
      // Each message counted and journaled as if it came alone (batch.ts).
      const outcome = await serveBatch(
        body as unknown[],
        (more) => countMore(deps, request, reply, more),
        serve,
        request.id,
      );
      for (const record of outcome.records) journal(record.status, record.operation, record.index ?? null);
      return answer(outcome.answer.status, outcome.answer.body);
    }
    if (plain !== undefined) {
      const text = await answerFast(deps, actor, plain, reporter(request));
      journal(200);
      return answerText(text);
    }
    const served = await serve(body);
    if (initialize && served.status === 200) {
      const result = (served.body as { result?: { protocolVersion?: string } }).result;
      const params = outline.params;
      const info = (params.clientInfo ?? {}) as { name?: unknown; version?: unknown };
      const named = typeof info.name === 'string' ? info.name : client;
      client = request.credentialClient ?? named;
      reply.header(
        'Mcp-Session-Id',
        await openMcpSession(deps, actor, {
          protocolVersion: result?.protocolVersion ?? String(params.protocolVersion ?? ''),
          clientName: named ?? '',
          clientVersion: typeof info.version === 'string' ? info.version : '',
        }),
      );
    }
    journal(served.status);
    return answer(served.status, served.body);
  });

  app.delete('/mcp', { config, schema: hidden }, async (request, reply) => {
    const id = header(request, SESSION_HEADER);
    if (id === undefined || id === '')
      return rpcError(reply, 400, -32600, 'Bad Request: Mcp-Session-Id header is required.');
    if (!(await endMcpSession(deps, { ...request.actor!, via: 'mcp' }, id)))
      return rpcError(reply, 404, -32001, 'Session not found.');
    return reply.code(200).send();
  });

  app.get('/mcp', { config, schema: hidden }, async (_request, reply) => {
    reply.header('Allow', 'POST, DELETE');
    return rpcError(
      reply,
      405,
      -32000,
      'Method not allowed: this endpoint answers POST with JSON and has no SSE stream.',
    );
  });
};
