import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { createTree, deleteTree, getTreeSnapshot, listTrees, updateTree } from '../../domain/trees/trees.js';
import { writeTreeExport } from '../../domain/trees/export.js';
import { ExportBody } from '../export-body.js';
import { answeredUnchanged } from '../etag.js';
import { access } from '../access.js';
import { errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { TreeExport } from '../schemas/export.js';
import { TreeInput, TreeList, TreeListQuery, TreeOnly, TreePatch, TreeSnapshot } from '../schemas/data.js';

const tags = ['Trees'];

export const treeRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/trees',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listTrees',
          tags,
          summary: 'Trees the actor can see, in creation order',
          querystring: TreeListQuery,
          headers: ReadHeaders,
          response: { 200: TreeList, ...errors(401, 403, 409) },
        },
      },
      async (request) => listTrees(deps, request.actor!, request.query),
    );

    app.post(
      '/trees',
      {
        config: { access: access.to('treeCreate') },
        schema: {
          operationId: 'createTree',
          tags,
          summary: 'Create a tree',
          description:
            'Needs the write scope and a credential of every tree: a token or OAuth connection limited to chosen trees (tree_ids) gets 403 insufficient_scope.',
          body: TreeInput,
          headers: WriteHeaders,
          response: { 201: TreeOnly, ...errors(401, 403, 409) },
        },
      },
      async (request, reply) => reply.code(201).send({ tree: await createTree(deps, request.actor!, request.body) }),
    );

    app.get(
      '/trees/:id',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'getTree',
          tags,
          summary: 'The tree with its projects and its tasks that are not archived',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: TreeSnapshot, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => getTreeSnapshot(deps, request.actor!, request.params.id),
    );

    app.patch(
      '/trees/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'updateTree',
          tags,
          summary: 'Rename a tree or change its style',
          params: IdParams,
          body: TreePatch,
          headers: WriteHeaders,
          response: { 200: TreeOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ tree: await updateTree(deps, request.actor!, request.params.id, request.body ?? {}) }),
    );

    app.delete(
      '/trees/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'deleteTree',
          tags,
          summary: 'Delete a tree and everything in it',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await deleteTree(deps, request.actor!, request.params.id);
        return { ok: true };
      },
    );

    app.get(
      '/trees/:id/export',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'exportTree',
          tags,
          summary: 'Full export: every retained task, history in the plan window, attachment metadata',
          description:
            'Budget: 10,000 records and 8 MiB of raw text, checked before anything is read; over it: 413 export_too_large.',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: TreeExport, ...errors(401, 403, 404, 409, 413) },
        },
      },
      async (request, reply) => {
        const body = new ExportBody(reply, request, deps.tempFiles.dir);
        let finished: ReturnType<ExportBody['end']>;
        try {
          await writeTreeExport(deps, request.actor!, request.params.id, body);
          finished = body.end();
        } catch (err) {
          body.close();
          throw err;
        }
        const { body: json, length, etag } = finished;
        if (answeredUnchanged(request, reply, etag)) {
          json.destroy();
          return reply;
        }
        // Already the document's JSON, written page by page (the schema still describes it for OpenAPI).
        return (reply as FastifyReply)
          .type('application/json; charset=utf-8')
          .header('content-length', length)
          .send(json);
      },
    );
  };
