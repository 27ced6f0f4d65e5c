import { McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { can, type Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { listTrees, getTreeSnapshot } from '../../domain/trees/trees.js';
import { internalFailure, toolTable, type ReportInternal } from './tool-table.js';

export const SERVER_INFO = { name: 'task-tree', version: '0.8.3' };

/**
 * What the server advertises: tools and resources, without `listChanged`. Which tools a
 * credential sees does change (scopes, plan), but a server lives for one exchange and never
 * sends the notice, so clients read tools/list again instead of waiting for it.
 */
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

/** What one request needs: no resources for tools/call, no tools for resources/*, else all; and where internal failures go. */
export interface ServerFocus {
  tools?: boolean;
  resources?: boolean;
  report?: ReportInternal;
}

/**
 * One server per request. Tools are served through the SDK's low-level handlers from one table
 * whose schemas are the REST ones: a tool the credential cannot use (domain capabilities) is
 * absent from tools/list and calling it is an unknown tool, exactly as if it did not exist; a
 * call's arguments are checked as a REST body, and every refusal is a tool error carrying
 * CONTRACT §1's error as structured content.
 */
export function buildMcpServer(deps: Deps, actor: Actor, focus: ServerFocus = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: CAPABILITIES });
  const visible = toolTable.filter((tool) => can(actor, tool.capability));

  if (focus.tools !== false) {
    server.server.setRequestHandler('tools/list', () => ({ tools: visible.map((tool) => tool.definition) }));
    server.server.setRequestHandler('tools/call', async (request) => {
      const tool = visible.find((t) => t.definition.name === request.params.name);
      if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      try {
        return await tool.run(deps, actor, request.params.arguments ?? {});
      } catch (err) {
        return internalFailure(focus.report, err);
      }
    });
  }

  if (can(actor, 'read')) {
    if (focus.resources !== false) server.registerResource('tree', new ResourceTemplate('service://tree/{id}', {
      list: async () => {
        const page = await listTrees(deps, actor, { limit: 200 });
        return { resources: page.items.map((t) => ({ uri: `service://tree/${t.id}`, name: t.name, mimeType: 'application/json' })) };
      },
    }), { title: 'Tree snapshot', description: 'A tree with its projects and its tasks that are not archived.', mimeType: 'application/json' }, async (uri, variables) => {
      const id = String(variables.id ?? '');
      try {
        const snapshot = await getTreeSnapshot(deps, actor, id);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(snapshot) }] };
      } catch (err) {
        if (err instanceof DomainError && (err.code === 'not_found' || err.code === 'validation_failed')) throw new ResourceNotFoundError(uri.href, `not_found: no tree ${id} is accessible`);
        throw err;
      }
    });
  }

  return server;
}
