import { listTrees } from '../../domain/trees/trees.js';
import { completeTask, createTask, getTask, listTasks } from '../../domain/trees/tasks.js';
import { searchTasks } from '../../domain/trees/search.js';
import { getAttachment } from '../../domain/files/attachments.js';
import { createTranscription } from '../../domain/files/speech.js';
import { versionIs } from '../../domain/precondition.js';
import { inputs, outputs } from './schemas.js';
import { readOnly, tool, type ToolSpec } from './tool-spec.js';
import { agentTools } from './agent-tools.js';

/** SPEC's eight tools (CONTRACT §9). */
const specTools: ToolSpec[] = [
  tool(
    'read',
    {
      name: 'list_trees',
      title: 'List trees',
      description:
        'Trees you can see, in creation order, paged with cursors. Start here to find the tree ids other tools take.',
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
      description: 'One task by id, with its current version. Read it before changing a task.',
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
      description:
        'Creates one task in a tree (and optionally a project of that tree). For several tasks at once use create_tasks.',
      outputSchema: outputs.TaskChange,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    inputs.CreateTask,
    async (deps, actor, args) => ({ task: await createTask(deps, actor, args) }),
    { writes: true },
  ),

  tool(
    'write',
    {
      name: 'complete_task',
      title: 'Complete a task',
      description: 'Marks a task done; the quickest way to close one finished task.',
      outputSchema: outputs.TaskChange,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    inputs.CompleteTask,
    async (deps, actor, { id, expected_version }) => ({
      task: await completeTask(
        deps,
        actor,
        id,
        expected_version === undefined ? undefined : versionIs(expected_version),
      ),
    }),
    { writes: true },
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

/** Every tool, in the order tools/list shows them: SPEC's eight, then CONTRACT §17's. */
export const toolTable: ToolSpec[] = [...specTools, ...agentTools];
