import { z } from 'zod';
import { McpServer, ResourceNotFoundError, ResourceTemplate, type CallToolResult } from '@modelcontextprotocol/server';
import type { Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { planLimits } from '../../domain/plans.js';
import { listTrees, getTreeSnapshot } from '../../domain/trees.js';
import { completeTask, createTask, getTask, listTasks } from '../../domain/tasks.js';
import { searchTasks } from '../../domain/search.js';
import { taskStatuses, treeStyles } from '../../domain/records.js';

export const SERVER_INFO = { name: 'task-tree', version: '0.8.3' };

const Id = z.string().min(1).max(160);
const paging = {
  limit: z.number().int().min(1).max(200).optional().describe('page size, 1 to 200 (default 100)'),
  cursor: z.string().min(1).max(1024).optional().describe('next_cursor of the previous page'),
  updated_since: z.string().max(64).optional().describe('ISO 8601 date-time with a zone; inclusive'),
};
const Status = z.enum(taskStatuses);

const Task = z.object({
  id: z.string(), tree_id: z.string(), project_id: z.string().nullable(), title: z.string(), text: z.string(), notes: z.string(),
  status: Status, deadline: z.string().nullable(), color: z.string(), position: z.number().int(), completed_at: z.string().nullable(),
  created_by: z.string(), assignee_ids: z.array(z.string()), created_at: z.string(), updated_at: z.string(),
});
const Tree = z.object({
  id: z.string(), name: z.string(), style: z.enum(treeStyles), owner_id: z.string(), access: z.enum(['owner', 'editor', 'viewer']),
  created_at: z.string(), updated_at: z.string(),
});
const TaskPage = z.object({ items: z.array(Task), next_cursor: z.string().nullable() });
const TreePage = z.object({ items: z.array(Tree), next_cursor: z.string().nullable() });
const OneTask = z.object({ task: Task });

/** A domain result as MCP wants it: structured content plus the same JSON as text. */
function ok(value: Record<string, unknown>): CallToolResult {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** Domain errors are tool errors carrying the CONTRACT code, not protocol failures. */
async function run(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return ok(await work());
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const details = err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`;
    return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}${details}` }] };
  }
}

/** What this credential may use, evaluated on every request (scopes and effective plan). */
export function capabilitiesOf(actor: Actor) {
  const read = actor.scopes.has('read');
  const write = actor.scopes.has('write') && planLimits[actor.plan].apiWrites;
  return { read, write };
}

/**
 * One server per request, holding only the tools this actor can use: a hidden tool is absent
 * from tools/list and calling it is an error, exactly as if it did not exist.
 */
export function buildMcpServer(deps: Deps, actor: Actor): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {}, resources: {} } });
  const can = capabilitiesOf(actor);
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

  if (can.read) {
    server.registerTool('list_trees', {
      title: 'List trees', description: 'Trees you can see, in creation order, paged with cursors.',
      inputSchema: z.object(paging), outputSchema: TreePage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await listTrees(deps, actor, input)) })));

    server.registerTool('list_tasks', {
      title: 'List tasks', description: 'Tasks in creation order, optionally of one tree or project or with one status.',
      inputSchema: z.object({ ...paging, tree_id: Id.optional(), project_id: Id.optional(), status: Status.optional() }),
      outputSchema: TaskPage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await listTasks(deps, actor, input)) })));

    server.registerTool('get_task', {
      title: 'Get a task', description: 'One task by id.', inputSchema: z.object({ id: Id }), outputSchema: OneTask, annotations: readOnly,
    }, ({ id }) => run(async () => ({ task: await getTask(deps, actor, id) })));

    server.registerTool('search', {
      title: 'Search tasks',
      description: 'Literal, case-insensitive substring search in title, text and notes. Terms split on white space; "a quoted phrase" is one term; every term must match.',
      inputSchema: z.object({ q: z.string().min(1).max(200), tree_id: Id.optional(), ...paging }), outputSchema: TaskPage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await searchTasks(deps, actor, input)) })));

    server.registerResource('tree', new ResourceTemplate('service://tree/{id}', {
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

  if (can.write) {
    server.registerTool('create_task', {
      title: 'Create a task', description: 'Creates a task in a tree (and optionally a project of that tree).',
      inputSchema: z.object({
        tree_id: Id, title: z.string().min(1).max(500), project_id: Id.nullable().optional(), text: z.string().max(10_000).optional(),
        notes: z.string().max(50_000).optional(), status: Status.optional(), deadline: z.string().max(40).nullable().optional(),
        color: z.string().regex(/^#[a-fA-F0-9]{6}$/).optional(), position: z.number().int().min(0).optional(),
      }),
      outputSchema: OneTask, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    }, (input) => run(async () => ({ task: await createTask(deps, actor, input) })));

    server.registerTool('complete_task', {
      title: 'Complete a task', description: 'Marks a task done.', inputSchema: z.object({ id: Id }), outputSchema: OneTask,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }, ({ id }) => run(async () => ({ task: await completeTask(deps, actor, id) })));
  }
  return server;
}
