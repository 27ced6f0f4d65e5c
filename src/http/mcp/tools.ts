import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { can, type Actor } from '../../domain/actor.js';
import { newChange, type Change } from '../../domain/change.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { listTrees, getTreeSnapshot } from '../../domain/trees/trees.js';
import { toolTable } from './tool-table.js';
import { internalFailure, type ReportInternal, type ToolSpec } from './tool-spec.js';
import { registerTreeApp } from './tree-app.js';

export const SERVER_INFO = { name: 'task-tree', version: '0.8.3' };

/**
 * What the server advertises: tools and resources, without `listChanged`. Which tools a
 * credential sees does change (scopes, plan), but no server here ever sends the notice (they
 * answer single requests, not connections), so clients read tools/list again instead of waiting for it.
 */
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

/** What one request needs: no resources for tools/call, no tools for resources/*, else all. */
export interface ServerFocus {
  tools?: boolean;
  resources?: boolean;
}

/** The actor and the failure reporter of one request travel with its auth info (route.ts `authInfoOf`). */
interface RequestContext {
  http?: { authInfo?: { extra?: Record<string, unknown> } };
  mcpReq?: { id?: unknown };
}

function actorOf(ctx: RequestContext): Actor {
  return ctx.http?.authInfo?.extra?.actor as Actor;
}

/**
 * The changes of one HTTP request's tool calls, by the request id the SDK's handler sees (in a
 * batch, the message's place in it): each tool call is a change of its own (CONTRACT §16.3), even
 * in a batch, and the route journals each with its change.
 */
export type CallChanges = Map<unknown, Change>;

/** The actor of one tool call: the request's actor with a change of the call's own. */
function callActor(ctx: RequestContext): Actor {
  const actor = actorOf(ctx);
  const changes = ctx.http?.authInfo?.extra?.changes as CallChanges | undefined;
  if (changes === undefined) return actor;
  const change = newChange();
  changes.set(ctx.mcpReq?.id, change);
  return { ...actor, change };
}

function reportOf(ctx: RequestContext): ReportInternal | undefined {
  return ctx.http?.authInfo?.extra?.report as ReportInternal | undefined;
}

type Visible = typeof toolTable;

function visibleTools(actor: Actor): Visible {
  return toolTable.filter((tool) => can(actor, tool.capability));
}

/**
 * Tools are served through the SDK's low-level handlers from one table whose schemas are the
 * REST ones: a tool the credential cannot use (domain capabilities) is absent from tools/list and
 * calling it is an unknown tool, exactly as if it did not exist; a call's arguments are checked
 * as a REST body, and every refusal is a tool error carrying CONTRACT §1's error as JSON text
 * (tool-spec.ts `toolError`). The handlers take the actor from each request, so a server can serve many.
 */
function serveTools(server: McpServer, deps: Deps, visible: Visible): void {
  server.server.setRequestHandler('tools/list', () => ({ tools: visible.map((tool) => tool.definition) }));
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = visible.find((t) => t.definition.name === request.params.name);
    if (tool === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return callTool(deps, tool, callActor(ctx), request.params.arguments, reportOf(ctx));
  });
}

const toolsByName = new Map(toolTable.map((tool) => [tool.definition.name, tool]));

/** The tool of this name that this actor sees, if any. */
export function visibleTool(actor: Actor, name: string): ToolSpec | undefined {
  const tool = toolsByName.get(name);
  return tool !== undefined && can(actor, tool.capability) ? tool : undefined;
}

/** A call of a tool the actor sees: its result, or a tool error without the cause when it broke on our side. */
export async function callTool(
  deps: Deps,
  tool: ToolSpec,
  actor: Actor,
  args: unknown,
  report: ReportInternal | undefined,
): Promise<CallToolResult> {
  try {
    return await tool.run(deps, actor, args ?? {});
  } catch (err) {
    return internalFailure(report, err);
  }
}

/** A server for one request, of either era: its tools and resources as this actor sees them now. */
export function buildMcpServer(deps: Deps, actor: Actor, focus: ServerFocus = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: CAPABILITIES });
  if (focus.tools !== false) serveTools(server, deps, visibleTools(actor));
  if (can(actor, 'read')) {
    if (focus.resources !== false) {
      registerTreeApp(server);
      server.registerResource(
        'tree',
        new ResourceTemplate('service://tree/{id}', {
          list: async () => {
            const page = await listTrees(deps, actor, { limit: 200 });
            return {
              resources: page.items.map((t) => ({
                uri: `service://tree/${t.id}`,
                name: t.name,
                mimeType: 'application/json',
              })),
            };
          },
        }),
        {
          title: 'Tree snapshot',
          description: 'A tree with its projects and its tasks that are not archived.',
          mimeType: 'application/json',
        },
        async (uri, variables) => {
          const id = String(variables.id ?? '');
          try {
            const snapshot = await getTreeSnapshot(deps, actor, id);
            return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(snapshot) }] };
          } catch (err) {
            if (err instanceof DomainError && (err.code === 'not_found' || err.code === 'validation_failed'))
              throw new ResourceNotFoundError(uri.href, `not_found: no tree ${id} is accessible`);
            throw err;
          }
        },
      );
    }
  }

  return server;
}
