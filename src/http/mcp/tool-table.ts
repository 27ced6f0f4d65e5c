import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Capability, Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { writtenChangeId } from '../../domain/change.js';
import { listTrees } from '../../domain/trees/trees.js';
import { completeTask, createTask, getTask, listTasks } from '../../domain/trees/tasks.js';
import { searchTasks } from '../../domain/trees/search.js';
import { getAttachment } from '../../domain/files/attachments.js';
import { createTranscription } from '../../domain/files/speech.js';
import { INTERNAL_MESSAGE, validationDetails } from '../errors.js';
import { inputs, outputs, type ToolInput } from './schemas.js';

/** One MCP tool: the capability that shows it, its REST-derived schemas, and the one domain call it makes. */
export interface ToolSpec {
  definition: Tool;
  capability: Capability;
  run(deps: Deps, actor: Actor, args: unknown): Promise<CallToolResult>;
}

/** A domain result as MCP wants it: structured content plus the same JSON as text. */
function ok(value: object): CallToolResult {
  return {
    structuredContent: value as Record<string, unknown>,
    content: [{ type: 'text', text: JSON.stringify(value) }],
  };
}

/**
 * A refusal as a tool error (CONTRACT §17 "Tool errors"): CONTRACT §1's `{error: {code, message,
 * details?}}` as the one text block, and no `structuredContent`. The official SDK clients check
 * any structured content against the tool's `outputSchema`, errors included (1.x does), and
 * would turn an error object there into the protocol error -32602, losing the code.
 */
export function toolError(code: string, message: string, details?: unknown[]): CallToolResult {
  const error = { code, message, ...(details !== undefined ? { details } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** What a tool reports when something broke on our side: the cause goes to the log, never to the client. */
export type ReportInternal = (err: unknown) => void;

function tool<T>(
  capability: Capability,
  definition: Omit<Tool, 'inputSchema' | 'outputSchema'> & { outputSchema: Record<string, unknown> },
  input: ToolInput<T>,
  call: (deps: Deps, actor: Actor, args: T) => Promise<object>,
): ToolSpec {
  const listed = { ...definition, inputSchema: input.json } as Tool;
  return {
    definition: listed,
    capability,
    async run(deps, actor, args) {
      // Arguments are checked as a REST body is: exact types, bounds, no unknown properties.
      if (!input.check(args)) {
        const details = validationDetails(input.check.errors ?? [], 'body').map(({ path, message }) => ({
          path,
          message,
        }));
        return toolError(
          'validation_failed',
          `arguments ${details[0]?.path ?? '/'} ${details[0]?.message ?? 'are invalid'}`,
          details,
        );
      }
      try {
        return ok(await call(deps, actor, args));
      } catch (err) {
        if (err instanceof DomainError) return toolError(err.code, err.message, err.details);
        throw err;
      }
    },
  };
}

const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/** Every tool of CONTRACT §9, in the order tools/list shows them. */
export const toolTable: ToolSpec[] = [
  tool(
    'read',
    {
      name: 'list_trees',
      title: 'List trees',
      description: 'Trees you can see, in creation order, paged with cursors.',
      outputSchema: outputs.TreePage,
      annotations: readOnly,
    },
    inputs.ListTrees,
    (deps, actor, args) => listTrees(deps, actor, args),
  ),

  tool(
    'read',
    {
      name: 'list_tasks',
      title: 'List tasks',
      description:
        "Tasks in creation order, optionally of one tree or project, with one status, assigned to one person, or with a deadline in a range (deadline_after, deadline_before: a date, the whole day in the user's time zone, or a zoned date-time; inclusive).",
      outputSchema: outputs.TaskPage,
      annotations: readOnly,
    },
    inputs.ListTasks,
    (deps, actor, args) => listTasks(deps, actor, args),
  ),

  tool(
    'read',
    {
      name: 'get_task',
      title: 'Get a task',
      description: 'One task by id.',
      outputSchema: outputs.OneTask,
      annotations: readOnly,
    },
    inputs.TaskId,
    async (deps, actor, { id }) => ({ task: await getTask(deps, actor, id) }),
  ),

  tool(
    'read',
    {
      name: 'search',
      title: 'Search tasks',
      description:
        'Literal, case-insensitive substring search in title, text and notes. Terms split on white space; "a quoted phrase" is one term; every term must match.',
      outputSchema: outputs.TaskPage,
      annotations: readOnly,
    },
    inputs.Search,
    (deps, actor, args) => searchTasks(deps, actor, args),
  ),

  tool(
    'write',
    {
      name: 'create_task',
      title: 'Create a task',
      description: 'Creates a task in a tree (and optionally a project of that tree).',
      outputSchema: outputs.TaskChanged,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    inputs.CreateTask,
    async (deps, actor, args) => {
      const task = await createTask(deps, actor, args);
      return { task, change_id: writtenChangeId(actor.change) };
    },
  ),

  tool(
    'write',
    {
      name: 'complete_task',
      title: 'Complete a task',
      description: 'Marks a task done.',
      outputSchema: outputs.TaskChanged,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    inputs.TaskId,
    async (deps, actor, { id }) => {
      const task = await completeTask(deps, actor, id);
      return { task, change_id: writtenChangeId(actor.change) };
    },
  ),

  tool(
    'attachments',
    {
      name: 'get_attachment',
      title: 'Get an attachment',
      description: 'An attachment of a task and a signed content link that works without credentials for 5 minutes.',
      outputSchema: outputs.AttachmentLink,
      annotations: readOnly,
    },
    inputs.AttachmentId,
    (deps, actor, { id }) => getAttachment(deps, actor, id),
  ),

  tool(
    'transcribe',
    {
      name: 'transcribe_audio',
      title: 'Transcribe audio',
      description:
        'Queues a speech job for an audio attachment of the task; poll the job through the REST API. Reports speech_unavailable when no provider is configured.',
      outputSchema: outputs.OneJob,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    inputs.Transcribe,
    async (deps, actor, { task_id, attachment_id }) => ({
      job: await createTranscription(deps, actor, task_id, { attachmentId: attachment_id }),
    }),
  ),
];

/** A failure that is not the client's and not a domain rule: reported, and answered without its cause. */
export function internalFailure(report: ReportInternal | undefined, err: unknown): CallToolResult {
  report?.(err);
  return toolError('internal_error', INTERNAL_MESSAGE);
}
