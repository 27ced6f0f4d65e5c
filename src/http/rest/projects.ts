import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../domain/trees/projects.js';
import { access } from '../access.js';
import { answeredUnchanged } from '../etag.js';
import { ifMatch } from '../if-match.js';
import { projectTag } from '../record-etags.js';
import { ConditionalWriteHeaders, errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import {
  DeleteProjectQuery,
  ProjectInput,
  ProjectList,
  ProjectListQuery,
  ProjectOnly,
  ProjectPatch,
} from '../schemas/data.js';

const tags = ['Projects'];

export const projectRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/projects',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listProjects',
          tags,
          summary: 'Projects in creation order, optionally of one tree',
          querystring: ProjectListQuery,
          headers: ReadHeaders,
          response: { 200: ProjectList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listProjects(deps, request.actor!, request.query),
    );

    app.post(
      '/projects',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'createProject',
          tags,
          summary: 'Create a project',
          description:
            'parent_id must be a project of the same tree (409 conflict otherwise); projects nest at most 64 levels (400 validation_failed deeper).',
          body: ProjectInput,
          headers: WriteHeaders,
          response: { 201: ProjectOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const project = await createProject(deps, request.actor!, request.body);
        return reply
          .code(201)
          .header('etag', projectTag(request, project.id, project.version))
          .send({ project });
      },
    );

    app.get(
      '/projects/:id',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'getProject',
          tags,
          summary: 'One project',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: ProjectOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const project = await getProject(deps, request.actor!, request.params.id);
        // Made from the version, as a task's: the same tag a write of the project answers with.
        return answeredUnchanged(request, reply, projectTag(request, project.id, project.version))
          ? reply
          : { project };
      },
    );

    app.patch(
      '/projects/:id',
      {
        config: { access: access.write(), recordETag: true },
        schema: {
          operationId: 'updateProject',
          tags,
          summary: 'Change or move a project',
          description:
            'A cycle is 409 conflict; a place where the project or its deepest descendant would sit below level 64 is 400 validation_failed. Moving to another tree carries every descendant project and their tasks (each of their versions rises by one). ' +
            'A patch that changes nothing answers the project unchanged: no history entry, the same version.',
          params: IdParams,
          body: ProjectPatch,
          headers: ConditionalWriteHeaders,
          response: { 200: ProjectOnly, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const precondition = ifMatch(request, reply, (current) => projectTag(request, id, current.version));
        const project = await updateProject(deps, request.actor!, id, request.body ?? {}, precondition);
        reply.header('etag', projectTag(request, project.id, project.version));
        return { project };
      },
    );

    app.delete(
      '/projects/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'deleteProject',
          tags,
          summary: 'Delete a project',
          description: 'With child projects or tasks: 409 conflict unless cascade=true, which removes the subtree.',
          params: IdParams,
          querystring: DeleteProjectQuery,
          headers: ConditionalWriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await deleteProject(deps, request.actor!, id, {
          cascade: request.query.cascade,
          precondition: ifMatch(request, reply, (current) => projectTag(request, id, current.version)),
        });
        return { ok: true };
      },
    );
  };
