import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { createComment, deleteComment, listComments, updateComment } from '../../domain/trees/comments.js';
import { createMessage, listMessages } from '../../domain/trees/messages.js';
import { setAssignees } from '../../domain/trees/assignees.js';
import { listHistory } from '../../domain/trees/history.js';
import { access } from '../access.js';
import { ifMatch } from '../if-match.js';
import { taskTag } from '../record-etags.js';
import { ConditionalWriteHeaders, errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { CursorQuery, TaskOnly } from '../schemas/data.js';
import {
  AssigneesInput,
  CommentList,
  CommentOnly,
  HistoryList,
  HistoryQuery,
  MessageList,
  MessageOnly,
  PostInput,
} from '../schemas/teams.js';

const tags = ['Teamwork'];

/** Working together in a tree: assignees, comments on tasks, the tree's messages and its history (CONTRACT §10). */
export const discussionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.put(
      '/tasks/:id/assignees',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'setTaskAssignees',
          tags,
          summary: "Replace the task's assignees (the tree owner or active members)",
          description:
            "Raises the task's version by one; the same people (in any order) change nothing. If-Match compares the task's ETag.",
          params: IdParams,
          body: AssigneesInput,
          headers: ConditionalWriteHeaders,
          response: { 200: TaskOnly, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const precondition = ifMatch(request, reply, (current) => taskTag(request, id, current.version));
        const task = await setAssignees(deps, request.actor!, id, request.body.user_ids, precondition);
        reply.header('etag', taskTag(request, task.id, task.version));
        return { task };
      },
    );

    app.get(
      '/tasks/:id/comments',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listComments',
          tags,
          summary: "A task's comments, in creation order",
          params: IdParams,
          querystring: CursorQuery,
          headers: ReadHeaders,
          response: { 200: CommentList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listComments(deps, request.actor!, request.params.id, request.query),
    );

    app.post(
      '/tasks/:id/comments',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'createComment',
          tags,
          summary: 'Comment on a task (owner or editor)',
          params: IdParams,
          body: PostInput,
          headers: WriteHeaders,
          response: { 201: CommentOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send({ comment: await createComment(deps, request.actor!, request.params.id, request.body.body) }),
    );

    app.patch(
      '/comments/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'updateComment',
          tags,
          summary: 'Edit a comment (its author)',
          params: IdParams,
          body: PostInput,
          headers: WriteHeaders,
          response: { 200: CommentOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ comment: await updateComment(deps, request.actor!, request.params.id, request.body.body) }),
    );

    app.delete(
      '/comments/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'deleteComment',
          tags,
          summary: 'Delete a comment (its author or the tree owner)',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await deleteComment(deps, request.actor!, request.params.id);
        return { ok: true };
      },
    );

    app.get(
      '/trees/:id/messages',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listMessages',
          tags,
          summary: "The tree's messages, in creation order",
          params: IdParams,
          querystring: CursorQuery,
          headers: ReadHeaders,
          response: { 200: MessageList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listMessages(deps, request.actor!, request.params.id, request.query),
    );

    app.post(
      '/trees/:id/messages',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'createMessage',
          tags,
          summary: 'Post a message to the tree (owner or editor)',
          params: IdParams,
          body: PostInput,
          headers: WriteHeaders,
          response: { 201: MessageOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send({ message: await createMessage(deps, request.actor!, request.params.id, request.body.body) }),
    );

    app.get(
      '/trees/:id/history',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listTreeHistory',
          tags,
          summary: "What changed in the tree, newest first, inside the owner's plan window",
          description:
            'Each entry names its change (change_id), the credential and client that wrote it, and the change a revert undid (reverts). Filter by change_id or credential_id.',
          params: IdParams,
          querystring: HistoryQuery,
          headers: ReadHeaders,
          response: { 200: HistoryList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listHistory(deps, request.actor!, request.params.id, request.query),
    );
  };
