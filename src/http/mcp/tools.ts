import { McpServer, ResourceNotFoundError, ResourceTemplate, type CallToolResult } from '@modelcontextprotocol/server';
import { can, type Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { listTrees, getTreeSnapshot } from '../../domain/trees/trees.js';
import { completeTask, createTask, getTask, listTasks } from '../../domain/trees/tasks.js';
import { searchTasks } from '../../domain/trees/search.js';
import { getAttachment } from '../../domain/files/attachments.js';
import { createTranscription } from '../../domain/files/speech.js';
import { schemas } from './schemas.js';

export const SERVER_INFO = { name: 'task-tree', version: '0.8.3' };

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


/** What one request needs: `tool` alone for tools/call, no tools for resources/*, else all. */
export interface ServerFocus {
  tool?: string;
  resources?: boolean;
}

/**
 * One server per request, holding only the tools this actor can use: a hidden tool is absent
 * from tools/list and calling it is an error, exactly as if it did not exist. A focused server
 * registers only what its request can reach (a tools/call needs its one tool), which is most
 * of the cost of building it.
 */
export function buildMcpServer(deps: Deps, actor: Actor, focus: ServerFocus = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {}, resources: {} } });
  const wants = (name: string) => focus.tool === undefined || focus.tool === name;
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

  if (can(actor, 'read')) {
    if (wants('list_trees')) server.registerTool('list_trees', {
      title: 'List trees', description: 'Trees you can see, in creation order, paged with cursors.',
      inputSchema: schemas.ListTrees, outputSchema: schemas.TreePage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await listTrees(deps, actor, input)) })));

    if (wants('list_tasks')) server.registerTool('list_tasks', {
      title: 'List tasks', description: 'Tasks in creation order, optionally of one tree or project or with one status.',
      inputSchema: schemas.ListTasks, outputSchema: schemas.TaskPage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await listTasks(deps, actor, input)) })));

    if (wants('get_task')) server.registerTool('get_task', {
      title: 'Get a task', description: 'One task by id.', inputSchema: schemas.TaskId, outputSchema: schemas.OneTask, annotations: readOnly,
    }, ({ id }) => run(async () => ({ task: await getTask(deps, actor, id) })));

    if (wants('search')) server.registerTool('search', {
      title: 'Search tasks',
      description: 'Literal, case-insensitive substring search in title, text and notes. Terms split on white space; "a quoted phrase" is one term; every term must match.',
      inputSchema: schemas.Search, outputSchema: schemas.TaskPage, annotations: readOnly,
    }, (input) => run(async () => ({ ...(await searchTasks(deps, actor, input)) })));

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

  if (can(actor, 'write')) {
    if (wants('create_task')) server.registerTool('create_task', {
      title: 'Create a task', description: 'Creates a task in a tree (and optionally a project of that tree).',
      inputSchema: schemas.CreateTask,
      outputSchema: schemas.OneTask, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    }, (input) => run(async () => ({ task: await createTask(deps, actor, input) })));

    if (wants('complete_task')) server.registerTool('complete_task', {
      title: 'Complete a task', description: 'Marks a task done.', inputSchema: schemas.TaskId, outputSchema: schemas.OneTask,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }, ({ id }) => run(async () => ({ task: await completeTask(deps, actor, id) })));
  }
  if (can(actor, 'attachments') && wants('get_attachment')) {
    server.registerTool('get_attachment', {
      title: 'Get an attachment',
      description: 'An attachment of a task and a signed content link that works without credentials for 5 minutes.',
      inputSchema: schemas.AttachmentId, outputSchema: schemas.AttachmentLink, annotations: readOnly,
    }, ({ id }) => run(async () => ({ ...(await getAttachment(deps, actor, id)) })));
  }

  if (can(actor, 'transcribe') && wants('transcribe_audio')) {
    server.registerTool('transcribe_audio', {
      title: 'Transcribe audio',
      description: 'Queues a speech job for an audio attachment of the task; poll the job through the REST API. Reports speech_unavailable when no provider is configured.',
      inputSchema: schemas.Transcribe, outputSchema: schemas.OneJob,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    }, ({ task_id, attachment_id }) => run(async () => ({ job: await createTranscription(deps, actor, task_id, { attachmentId: attachment_id }) })));
  }
  return server;
}
