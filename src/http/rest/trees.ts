import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import {
  createTree,
  deleteTree,
  getTreeSnapshot,
  listTrees,
  updateTree,
  type TreeCurrent,
} from '../../domain/trees/trees.js';
import { writeTreeExport } from '../../domain/trees/export.js';
import { parseShapeIds, treeShapes } from '../../domain/trees/tree-shapes.js';
import { SHAPE_PROJECTS_MAX, SHAPE_TASKS_MAX } from '../../domain/trees/tree-shape.js';
import { TreeShapes, TreeShapesQuery } from '../schemas/tree-shapes.js';
import { ExportBody } from '../export-body.js';
import { answeredUnchanged } from '../etag.js';
import { ifMatch } from '../if-match.js';
import { treeTag } from '../record-etags.js';
import { access } from '../access.js';
import { ConditionalWriteHeaders, errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
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

    app.get(
      '/tree-shapes',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listTreeShapes',
          tags,
          summary: "The shapes of trees' drawings, for their cards",
          description:
            'Each tree as its drawing is laid out, without names, titles or texts: projects as parent indexes, ' +
            `tasks as project, status and colour indexes, at most ${SHAPE_TASKS_MAX} tasks and ${SHAPE_PROJECTS_MAX} projects per tree. ` +
            'One request for a page of cards; its ETag changes when a shape does.',
          querystring: TreeShapesQuery,
          headers: ReadHeaders,
          response: { 200: TreeShapes, ...errors(401, 403, 409) },
        },
      },
      async (request) => ({ items: await treeShapes(deps, request.actor!, parseShapeIds(request.query.ids)) }),
    );

    app.post(
      '/trees',
      {
        config: { access: access.to('treeCreate'), recordETag: true },
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
      async (request, reply) => {
        const tree = await createTree(deps, request.actor!, request.body);
        // A new tree's snapshot holds no projects and no tasks: its tag needs no read.
        const etag = treeTag(request, { tree, projects: [], tasks: [] });
        return reply.code(201).header('etag', etag).send({ tree });
      },
    );

    app.get(
      '/trees/:id',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'getTree',
          tags,
          summary: 'The tree with its projects and its tasks that are not archived',
          description:
            "Its ETag changes whenever anything in the snapshot changes; it is the tag If-Match compares on the tree's writes.",
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: TreeSnapshot, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const snapshot = await getTreeSnapshot(deps, request.actor!, request.params.id);
        return answeredUnchanged(request, reply, treeTag(request, snapshot)) ? reply : snapshot;
      },
    );

    app.patch(
      '/trees/:id',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'updateTree',
          tags,
          summary: 'Rename a tree or change its style',
          description:
            'The answer carries the ETag of GET /trees/{id} (the snapshot), which If-Match compares. ' +
            'A patch that changes nothing answers the tree unchanged: no history entry, the same version.',
          params: IdParams,
          body: TreePatch,
          headers: ConditionalWriteHeaders,
          response: { 200: TreeOnly, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const precondition = ifMatch(request, reply, (current: TreeCurrent) => treeTag(request, current));
        const versions = await updateTree(deps, request.actor!, request.params.id, request.body ?? {}, precondition);
        reply.header('etag', treeTag(request, versions));
        return { tree: versions.tree };
      },
    );

    app.delete(
      '/trees/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'deleteTree',
          tags,
          summary: 'Delete a tree and everything in it',
          description: 'If-Match compares the ETag of GET /trees/{id} (the snapshot).',
          params: IdParams,
          headers: ConditionalWriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        await deleteTree(
          deps,
          request.actor!,
          request.params.id,
          ifMatch(request, reply, (current: TreeCurrent) => treeTag(request, current)),
        );
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
