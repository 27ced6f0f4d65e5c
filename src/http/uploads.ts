import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart, { type Multipart } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { Upload } from '../domain/files/attachments.js';
import { MAX_UPLOAD_BYTES } from '../domain/files/attachments.js';
import { DomainError, invalid } from '../domain/errors.js';
import { asUploadError, watchIdle } from './upload-guard.js';

/**
 * multipart/form-data for the upload routes of one plugin. Busboy stops one byte past the limit;
 * the blob store counts the bytes itself and refuses the file with 413.
 */
export async function acceptUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, fields: 4, fieldSize: 4096, parts: 8, headerPairs: 50 },
  });
}

/** How an upload looks in the OpenAPI document (the route reads the stream itself). */
export const uploadBody = Type.Object({
  file: Type.String({ format: 'binary', description: 'the file; at most 26,214,400 bytes' }),
  filename: Type.Optional(
    Type.String({ maxLength: 4096, description: "the name to keep; else the part's file name. Sanitized." }),
  ),
});

/** busboy throws a plain Error (a 500) on a multipart type without a boundary: it is the client's header. */
function requireBoundary(request: FastifyRequest): void {
  if (/;\s*boundary\s*=\s*("[^"]+"|[^;\s]+)/i.test(request.headers['content-type'] ?? '')) return;
  throw new DomainError('validation_failed', 'multipart/form-data needs a boundary parameter in Content-Type.', [
    { path: '/content-type', message: 'has no boundary parameter', in: 'header' },
  ]);
}

/**
 * The one file of an upload: field `file`, optional text field `filename` before or after it.
 * Any second file is refused. The domain reads the file stream, then calls `rest()` for what
 * follows it; nothing is stored before both are done. A body that is malformed, ends early or
 * stalls for `idleMs` fails with 400 `validation_failed` (see upload-guard.ts).
 */
export function readUpload(request: FastifyRequest, reply: FastifyReply, idleMs: number): () => Promise<Upload> {
  return async () => {
    if (!request.isMultipart())
      throw new DomainError(
        'unsupported_media_type',
        'Send the file as multipart/form-data with a field named "file".',
      );
    requireBoundary(request);
    const watch = watchIdle(request, reply, idleMs);
    let iterator: AsyncIterator<Multipart>;
    try {
      iterator = request.parts()[Symbol.asyncIterator]();
    } catch (err) {
      throw asUploadError(err);
    }
    const next = () =>
      watch.race(iterator.next()).catch((err: unknown) => {
        throw asUploadError(err);
      });
    let filename: string | undefined;
    for (let item = await next(); item.done !== true; item = await next()) {
      const part = item.value;
      if (part.type === 'field') {
        if (part.fieldname === 'filename') filename = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file')
        throw invalid(`/${part.fieldname.slice(0, 40)}`, 'unknown file field; send the file as "file"');
      const named = part.filename;
      return {
        file: watch.guard(part.file),
        contentType: part.mimetype,
        async rest() {
          for (let more = await next(); more.done !== true; more = await next()) {
            const after = more.value;
            if (after.type === 'file') {
              after.file.resume();
              throw invalid('/file', 'only one file per upload');
            }
            if (after.fieldname === 'filename') filename = String(after.value);
          }
          return { filename: filename ?? named };
        },
      };
    }
    throw invalid('/file', 'is required: a multipart field named "file"');
  };
}
