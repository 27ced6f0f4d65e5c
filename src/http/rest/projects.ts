import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../domain/trees/projects.js';
import { access } from '../access.js';
import { errors, IdParams, Ok, ReadHeaders, WriteHeaders } from '../schemas/common.js';
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
        config: { access: access.write() },
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
      async (request, reply) =>
        reply.code(201).send({ project: await createProject(deps, request.actor!, request.body) }),
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
      async (request) => ({ project: await getProject(deps, request.actor!, request.params.id) }),
    );

    app.patch(
      '/projects/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'updateProject',
          tags,
          summary: 'Change or move a project',
          description:
            'A cycle is 409 conflict; a place where the project or its deepest descendant would sit below level 64 is 400 validation_failed. Moving to another tree carries every descendant project and their tasks.',
          params: IdParams,
          body: ProjectPatch,
          headers: WriteHeaders,
          response: { 200: ProjectOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({
        project: await updateProject(deps, request.actor!, request.params.id, request.body ?? {}),
      }),
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
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await deleteProject(deps, request.actor!, request.params.id, { cascade: request.query.cascade });
        return { ok: true };
      },
    );
  };
