import { deleteTask, updateTask } from '../../domain/trees/tasks.js';
import { setAssignees } from '../../domain/trees/assignees.js';
import { createComment, listComments } from '../../domain/trees/comments.js';
import { listHistory } from '../../domain/trees/history.js';
import { runTaskBatch } from '../../domain/trees/task-batch.js';
import { versionIs } from '../../domain/precondition.js';
import { inputs, outputs } from './schemas.js';
import { readOnly, tool, type ToolSpec } from './tool-spec.js';
import { changes } from './tree-tools.js';

/** The task, comment and history tools of CONTRACT §17, in the order tools/list shows them. */
export const taskTools: ToolSpec[] = [
  tool(
    'write',
    {
      name: 'update_task',
      title: 'Update a task',
      description:
        'Changes a task’s fields, status or place (project, tree, position). Pass the version you read as expected_version.',
      outputSchema: outputs.TaskChange,
      annotations: changes,
    },
    inputs.UpdateTask,
    async (deps, actor, { id, expected_version, ...patch }) => ({
      task: await updateTask(deps, actor, id, patch, versionIs(expected_version)),
    }),
    { writes: true },
  ),

  tool(
    'write',
    {
      name: 'delete_task',
      title: 'Delete a task',
      description:
        'Deletes a task with its comments and attachments. Prefer update_task with status done or archived unless it was a mistake.',
      outputSchema: outputs.Deleted,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    inputs.DeleteTask,
    async (deps, actor, { id, expected_version }) => {
      await deleteTask(deps, actor, id, versionIs(expected_version));
      return { ok: true };
    },
    { writes: true },
  ),

  tool(
    'write',
    {
      name: 'assign_task',
      title: 'Assign a task',
      description:
        'Sets who a task is assigned to (the tree owner or its members; an empty list unassigns). Replaces the whole list.',
      outputSchema: outputs.TaskChange,
      annotations: { ...changes, idempotentHint: true },
    },
    inputs.AssignTask,
    async (deps, actor, { id, expected_version, user_ids }) => ({
      task: await setAssignees(deps, actor, id, user_ids, versionIs(expected_version)),
    }),
    { writes: true },
  ),

  tool(
    'write',
    {
      name: 'add_comment',
      title: 'Comment on a task',
      description: 'Adds a comment to a task, to report progress or ask the people working on it.',
      outputSchema: outputs.CommentChange,
      annotations: changes,
    },
    inputs.AddComment,
    async (deps, actor, { task_id, body }) => ({ comment: await createComment(deps, actor, task_id, body) }),
    { writes: true },
  ),

  tool(
    'read',
    {
      name: 'list_comments',
      title: 'List comments',
      description: "A task's comments, oldest first. Read them before working on a task others discuss.",
      outputSchema: outputs.CommentPage,
      annotations: readOnly,
    },
    inputs.ListComments,
    (deps, actor, { task_id, ...page }) => listComments(deps, actor, task_id, page),
  ),

  tool(
    'read',
    {
      name: 'get_history',
      title: 'Get history',
      description:
        'What changed in a tree, newest first, each entry with its change_id. Use it to see who changed what, or to find a change to revert.',
      outputSchema: outputs.HistoryPage,
      annotations: readOnly,
    },
    inputs.GetHistory,
    (deps, actor, { tree_id, ...filters }) => listHistory(deps, actor, tree_id, filters),
  ),

  tool(
    'write',
    {
      name: 'create_tasks',
      title: 'Create tasks',
      description:
        'Creates 1 to 50 tasks in one tree at once, all or none. Use it instead of repeated create_task calls.',
      outputSchema: outputs.TasksChange,
      annotations: changes,
    },
    inputs.CreateTasks,
    async (deps, actor, { tree_id, tasks }) => ({
      tasks: (await runTaskBatch(deps, actor, { create: tasks.map((task) => ({ ...task, tree_id })) })).created,
    }),
    { writes: true, items: 'tasks' },
  ),

  tool(
    'write',
    {
      name: 'update_tasks',
      title: 'Update tasks',
      description:
        'Updates 1 to 50 tasks at once, all or none, each with the version you read. Use it instead of repeated update_task calls.',
      outputSchema: outputs.TasksChange,
      annotations: changes,
    },
    inputs.UpdateTasks,
    async (deps, actor, { updates }) => ({
      tasks: (
        await runTaskBatch(deps, actor, {
          update: updates.map(({ id, expected_version, ...patch }) => ({
            id,
            patch,
            precondition: versionIs(expected_version),
          })),
        })
      ).updated,
    }),
    { writes: true, items: 'updates' },
  ),
];
