import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { Attachment } from '../../domain/schemas/files.js';
import {
  contentBySignature,
  contentFor,
  createAttachment,
  deleteAttachment,
  getAttachment,
  listAttachments,
  type Content,
} from '../../domain/files/attachments.js';
import { DomainError } from '../../domain/errors.js';
import { access } from '../access.js';
import { CursorQuery } from '../schemas/data.js';
import { acceptUploads, readUpload, uploadBody } from '../uploads.js';
import { errors, IdParams, Nullable, Ok, ReadHeaders, Timestamp, WriteHeaders } from '../schemas/common.js';

const tags = ['Attachments'];

const AttachmentRef = Type.Ref('Attachment');
/** An attachment and its signed content link (MCP's get_attachment answers the same). */
export const AttachmentLink = Type.Object({
  attachment: AttachmentRef,
  content_url: Type.String(),
  content_url_expires_at: Timestamp,
});
/** Stored bytes, sent with the type they were uploaded with when it is shown or played, else application/octet-stream. */
const fileContent = (description: string) => ({
  description,
  content: { '*/*': { schema: Type.String({ format: 'binary' }) } },
});
const ContentQuery = Type.Object(
  {
    expires: Type.Optional(Type.String({ maxLength: 20 })),
    signature: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

/** `attachment; filename="…"` with an ASCII fallback and the exact name in RFC 5987 form (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** One `bytes=` range of RFC 9110 (first-last, first-, -suffix); null when absent or not one range. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Serves stored bytes so they never run in our origin: a download, no sniffing, a sandbox. */
async function sendContent(reply: FastifyReply, content: Content, rangeHeader: string | undefined) {
  const { attachment } = content;
  const range = parseRange(rangeHeader, attachment.size);
  // The store is asked for the range itself (S3 answers it with its own Range), never the whole
  // file; it is opened before any header is set, so a store that fails answers a plain error.
  const body = range === 'unsatisfiable' ? null : await content.read(range ?? undefined);
  reply.header('Content-Type', content.servedType);
  reply.header('Content-Disposition', contentDisposition(attachment.filename));
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Security-Policy', "sandbox; default-src 'none'");
  reply.header('Accept-Ranges', 'bytes');
  reply.header('ETag', `"${attachment.sha256}"`);
  if (range === 'unsatisfiable' || body === null) {
    reply.header('Content-Range', `bytes */${attachment.size}`);
    throw new DomainError('range_not_satisfiable', `The range is outside the ${attachment.size} bytes of this file.`);
  }
  if (range === null) {
    reply.header('Content-Length', attachment.size);
    return reply.code(200).send(body);
  }
  reply.header('Content-Range', `bytes ${range.start}-${range.end}/${attachment.size}`);
  reply.header('Content-Length', range.end - range.start + 1);
  return reply.code(206).send(body);
}

export const attachmentRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await acceptUploads(app);
    app.addSchema(Attachment);

    app.post(
      '/tasks/:id/attachments',
      {
        config: {
          access: access.to('attachmentWrites'),
          idempotency: 'ignore',
          documentedBody: { content: { 'multipart/form-data': { schema: uploadBody } } },
        },
        schema: {
          operationId: 'uploadAttachment',
          tags,
          summary: 'Upload a file to a task',
          description:
            'multipart/form-data: field `file` (one file, at most 26,214,400 bytes) and optional field `filename`. Photos (JPEG, PNG, WebP, HEIC/AVIF, TIFF) lose GPS, camera, serial, owner, maker-note, XMP, IPTC and thumbnail metadata, and whatever follows the end of the image, without re-encoding; Orientation is kept. Idempotency-Key is not applied to uploads.',
          params: IdParams,
          headers: WriteHeaders,
          response: { 201: Type.Object({ attachment: AttachmentRef }), ...errors(401, 403, 404, 409, 413, 415, 503) },
        },
      },
      async (request, reply) => {
        const attachment = await createAttachment(
          deps,
          request.actor!,
          request.params.id,
          readUpload(request, reply, deps.config.http.bodyIdleTimeoutMs),
        );
        return reply.code(201).send({ attachment });
      },
    );

    app.get(
      '/tasks/:id/attachments',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listAttachments',
          tags,
          summary: "A task's attachments in upload order",
          params: IdParams,
          querystring: CursorQuery,
          headers: ReadHeaders,
          response: {
            200: Type.Object({ items: Type.Array(AttachmentRef), next_cursor: Nullable(Type.String()) }),
            ...errors(401, 403, 404, 409),
          },
        },
      },
      async (request) => listAttachments(deps, request.actor!, request.params.id, request.query),
    );

    app.get(
      '/attachments/:id',
      {
        config: { access: access.to('attachments') },
        schema: {
          operationId: 'getAttachment',
          tags,
          summary: 'An attachment and a signed content link (valid 5 minutes, no credentials needed)',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: AttachmentLink, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return getAttachment(deps, request.actor!, request.params.id);
      },
    );

    app.get(
      '/attachments/:id/content',
      {
        config: { access: access.anyone },
        schema: {
          operationId: 'getAttachmentContent',
          tags,
          summary: 'The file content',
          description:
            'Needs read + attachments (Bearer or session), or the `expires` and `signature` of a content link. Single byte ranges answer 206. Served as a download with nosniff and a sandbox CSP, with the declared content type only for raster images, audio, video, PDF, plain text and CSV; anything else (HTML, SVG, XML, JavaScript, CSS…) as application/octet-stream.',
          params: IdParams,
          querystring: ContentQuery,
          response: {
            200: fileContent('The whole file'),
            206: fileContent('One byte range of the file'),
            ...errors(401, 403, 404, 416, 503),
          },
        },
      },
      async (request, reply) => {
        const { expires, signature } = request.query;
        let content: Content;
        if (signature !== undefined || expires !== undefined) {
          content = await contentBySignature(deps, request.params.id, expires ?? '', signature ?? '');
        } else {
          if (request.actor === null)
            throw new DomainError(
              'unauthenticated',
              'Send a Bearer token with read and attachments, or use a signed content link.',
            );
          content = await contentFor(deps, request.actor, request.params.id);
        }
        return sendContent(reply, content, request.headers.range);
      },
    );

    app.delete(
      '/attachments/:id',
      {
        config: { access: access.to('attachmentWrites') },
        schema: {
          operationId: 'deleteAttachment',
          tags,
          summary: 'Delete an attachment and free its storage',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: Ok, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await deleteAttachment(deps, request.actor!, request.params.id);
        return { ok: true };
      },
    );
  };
