import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import {
  createTask,
  deleteTask,
  getTaskVersion,
  getVersionedTask,
  listTasks,
  updateTask,
} from '../../domain/trees/tasks.js';
import { runTaskBatch } from '../../domain/trees/task-batch.js';
import { DomainError } from '../../domain/errors.js';
import { versionIs } from '../../domain/precondition.js';
import { answeredUnchanged } from '../etag.js';
import { validationDetails } from '../errors.js';
import { itemDetails } from '../batch-details.js';
import { ifMatch } from '../if-match.js';
import { taskTag } from '../record-etags.js';
import { access } from '../access.js';
import { ConditionalWriteHeaders, errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import {
  TaskBatchInput,
  TaskBatchResult,
  TaskInput,
  TaskList,
  TaskListQuery,
  TaskOnly,
  TaskPatch,
} from '../schemas/data.js';

const tags = ['Tasks'];

/**
 * A batch body's validation failure as CONTRACT §17 names it: each detail inside an item carries
 * the item's `index` and `op`. Any other part's failure (headers) is answered as usual.
 */
function batchValidation(error: Error & { validation?: unknown; validationContext?: string }): Error {
  if (error.validationContext !== 'body' || !Array.isArray(error.validation)) return error;
  const details = itemDetails(validationDetails(error.validation, 'body'), { create: 'create', update: 'update' });
  const first = details[0] as { index?: number; op?: string; path?: string; message?: string } | undefined;
  const where = first?.index !== undefined ? `item ${first.index} of ${first.op}: ` : '';
  return new DomainError(
    'validation_failed',
    `Nothing was written: ${where}body ${first?.path ?? '/'} ${first?.message ?? 'is invalid'}`,
    details,
  );
}

export const taskRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/tasks',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listTasks',
          tags,
          summary: 'Tasks in creation order, filtered by tree, project, status, assignee or deadline',
          querystring: TaskListQuery,
          headers: ReadHeaders,
          response: { 200: TaskList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listTasks(deps, request.actor!, request.query),
    );

    app.post(
      '/tasks',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'createTask',
          tags,
          summary: 'Create a task',
          description:
            "Defaults: status todo, color #6b8e23, position after the last sibling. project_id must be in the task's tree.",
          body: TaskInput,
          headers: WriteHeaders,
          response: { 201: TaskOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const task = await createTask(deps, request.actor!, request.body);
        return reply
          .code(201)
          .header('etag', taskTag(request, task.id, task.version))
          .send({ task });
      },
    );

    app.post(
      '/tasks/batch',
      {
        config: { access: access.write() },
        attachValidation: true,
        schema: {
          operationId: 'batchTasks',
          tags,
          summary: 'Create and update up to 50 tasks at once, all or nothing',
          description:
            'One change (one Change-Id, one revert undoes it): every item is written, or none. ' +
            "Each update names the version the task must still have (as If-Match does). Any bad item fails the whole batch with its error's code, and details naming every bad item by index and op: " +
            '[{index, op, path, message}] for validation, [{index, op}] for not found, [{index, op, current_version}] for versions. Results list the items in input order.',
          body: TaskBatchInput,
          headers: WriteHeaders,
          response: { 200: TaskBatchResult, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request) => {
        if (request.validationError !== undefined) throw batchValidation(request.validationError);
        const { create, update } = request.body;
        return runTaskBatch(deps, request.actor!, {
          ...(create !== undefined ? { create } : {}),
          ...(update !== undefined
            ? {
                update: update.map(({ id, version, ...patch }) => ({
                  id,
                  patch,
                  precondition: versionIs(version),
                })),
              }
            : {}),
        });
      },
    );

    app.get(
      '/tasks/:id',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'getTask',
          tags,
          summary: 'One task',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: TaskOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        // A revalidation reads the version alone first: most find the task unchanged.
        if (
          request.headers['if-none-match'] !== undefined &&
          answeredUnchanged(request, reply, taskTag(request, id, await getTaskVersion(deps, request.actor!, id)))
        )
          return reply;
        const { task, version } = await getVersionedTask(deps, request.actor!, id);
        return answeredUnchanged(request, reply, taskTag(request, task.id, version)) ? reply : { task };
      },
    );

    app.patch(
      '/tasks/:id',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'updateTask',
          tags,
          summary: 'Change or move a task',
          description:
            'Moving to another tree clears project_id unless a project of that tree is given. ' +
            'A patch that changes nothing (empty, or values as they are) answers the task unchanged: no history entry, the same version.',
          params: IdParams,
          body: TaskPatch,
          headers: ConditionalWriteHeaders,
          response: { 200: TaskOnly, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const precondition = ifMatch(request, reply, (current) => taskTag(request, id, current.version));
        const task = await updateTask(deps, request.actor!, id, request.body ?? {}, precondition);
        reply.header('etag', taskTag(request, task.id, task.version));
        return { task };
      },
    );

    app.delete(
      '/tasks/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'deleteTask',
          tags,
          summary: 'Delete a task',
          params: IdParams,
          headers: ConditionalWriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await deleteTask(
          deps,
          request.actor!,
          id,
          ifMatch(request, reply, (current) => taskTag(request, id, current.version)),
        );
        return { ok: true };
      },
    );
  };
