import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { importCsv } from '../../domain/trees/csv-import.js';
import { IMPORT_MAX_BYTES, importColumns } from '../../domain/trees/csv-read.js';
import { DomainError } from '../../domain/errors.js';
import { access } from '../access.js';
import { acceptUploads, readUpload } from '../uploads.js';
import { errors, IdParams, WriteHeaders } from '../schemas/common.js';

const ImportQuery = Type.Object(
  { dry_run: Type.Optional(Type.Boolean({ description: 'validate and count without writing' })) },
  { additionalProperties: false },
);
const ImportResult = Type.Object({
  created: Type.Object({ projects: Type.Integer(), tasks: Type.Integer() }),
  dry_run: Type.Optional(Type.Boolean()),
});
const description =
  `RFC 4180 CSV in UTF-8 (BOM optional, CRLF or LF) with a header row. Columns: ${importColumns.join(', ')} (title required; project is a path A/B, created when missing; assignee is the email of the owner or an active member). ` +
  'Every row or none, as the current actor. Any bad row: 400 validation_failed with details [{row, column, message}] for all of them (the header is row 1). ' +
  'At most 10,000 rows and 8 MiB (413). Send text/csv, or multipart/form-data with the file in "file".';

/** The file as a stream: a text/csv body, or the "file" part of a multipart form. */
function openCsv(request: FastifyRequest, reply: FastifyReply, idleMs: number): () => Promise<Readable> {
  if (request.isMultipart()) {
    const upload = readUpload(request, reply, idleMs);
    return async () => (await upload()).file;
  }
  return async () => {
    if (!(request.body instanceof Readable))
      throw new DomainError(
        'unsupported_media_type',
        'Send the file as text/csv, or as multipart/form-data in a field named "file".',
      );
    return request.body;
  };
}

/** POST /trees/{id}/import (CONTRACT §10). Its own plugin: it reads text/csv and multipart bodies as streams. */
export const importRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await acceptUploads(app);
    // The domain counts the bytes as they stream (8 MiB); Fastify's JSON limit must not cut the file first.
    app.addContentTypeParser('text/csv', { bodyLimit: IMPORT_MAX_BYTES + 1 }, (_request, payload, done) =>
      done(null, payload),
    );

    app.post(
      '/trees/:id/import',
      {
        config: { access: access.write(), documentedBody: Type.String({ description: 'the CSV file' }) },
        bodyLimit: IMPORT_MAX_BYTES + 1,
        schema: {
          operationId: 'importTasks',
          tags: ['Teamwork'],
          summary: 'Import tasks from a CSV file, all or nothing',
          description,
          params: IdParams,
          querystring: ImportQuery,
          headers: WriteHeaders,
          response: { 200: ImportResult, 201: ImportResult, ...errors(401, 403, 404, 409, 413, 415) },
        },
      },
      async (request, reply) => {
        const dryRun = request.query.dry_run === true;
        // A refused file may be left partly unread: end the connection with the answer rather than reuse it.
        reply.header('connection', 'close');
        const result = await importCsv(
          deps,
          request.actor!,
          request.params.id,
          openCsv(request, reply, deps.config.http.bodyIdleTimeoutMs),
          { dryRun },
        );
        return reply.code(dryRun ? 200 : 201).send(result);
      },
    );
  };
