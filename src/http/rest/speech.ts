import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { createTranscription, getSpeechJob, listSpeechJobs, speechStatus } from '../../domain/files/speech.js';
import { invalid } from '../../domain/errors.js';
import { SpeechJob } from '../../domain/schemas/files.js';
import { checkId } from '../../domain/fields.js';
import { access } from '../access.js';
import { CursorQuery } from '../schemas/data.js';
import { acceptUploads, readUpload, uploadBody } from '../uploads.js';
import { errors, Id, IdParams, Nullable, ReadHeaders, WriteHeaders } from '../schemas/common.js';

const tags = ['Speech'];

const JobRef = Type.Ref('SpeechJob');
/** `{job}`: the answer to a transcription request and to a job read (MCP's transcribe_audio too). */
export const OneJob = Type.Object({ job: JobRef });

export const TranscribeAttachment = Type.Object({ attachment_id: Id }, { additionalProperties: false });

/**
 * The JSON form `{attachment_id}`, checked by hand: the route also takes multipart, which a
 * body schema would refuse. Same rules as every body: exact types, no unknown properties.
 */
function attachmentIdOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('', 'must be a JSON object {attachment_id} or a multipart upload');
  const unknown = Object.keys(body).find((key) => key !== 'attachment_id');
  if (unknown !== undefined) throw invalid(`/${unknown.slice(0, 40)}`, 'is not a known property');
  const id = (body as { attachment_id?: unknown }).attachment_id;
  if (typeof id !== 'string') throw invalid('/attachment_id', 'must be a string');
  checkId('/attachment_id', id);
  return id;
}

export const speechRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await acceptUploads(app);
    app.addSchema(SpeechJob);

    app.get(
      '/speech/status',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'getSpeechStatus',
          tags,
          summary: 'Whether transcription is available; check before transcribing',
          headers: ReadHeaders,
          response: {
            200: Type.Object({
              configured: Type.Boolean(),
              provider: Nullable(Type.String()),
              max_bytes: Type.Integer(),
              formats: Type.Array(Type.String()),
            }),
            ...errors(401, 403, 409),
          },
        },
      },
      async (request) => speechStatus(deps, request.actor!),
    );

    app.post(
      '/tasks/:id/transcriptions',
      {
        config: {
          access: access.to('transcribe'),
          idempotency: 'ignore',
          documentedBody: {
            content: {
              'application/json': { schema: TranscribeAttachment },
              'multipart/form-data': { schema: uploadBody },
            },
          },
        },
        schema: {
          operationId: 'createTranscription',
          tags,
          summary: 'Transcribe audio into a speech job',
          description:
            'Either multipart/form-data with the audio as `file` (stored as an attachment of the task), or JSON `{attachment_id}` naming an attachment of the task. Needs write + attachments and a paid plan; 503 speech_unavailable (and no job) when no provider is configured. Idempotency-Key is not applied here.',
          params: IdParams,
          headers: WriteHeaders,
          response: { 202: OneJob, ...errors(401, 403, 404, 409, 413, 415, 503) },
        },
      },
      async (request, reply) => {
        const source = request.isMultipart()
          ? { upload: readUpload(request, reply, deps.config.http.bodyIdleTimeoutMs) }
          : { attachmentId: attachmentIdOf(request.body) };
        return reply
          .code(202)
          .send({ job: await createTranscription(deps, request.actor!, request.params.id, source) });
      },
    );

    app.get(
      '/tasks/:id/transcriptions',
      {
        config: { access: access.to('attachments') },
        schema: {
          operationId: 'listTranscriptions',
          tags,
          summary: "A task's speech jobs in creation order",
          params: IdParams,
          querystring: CursorQuery,
          headers: ReadHeaders,
          response: {
            200: Type.Object({ items: Type.Array(JobRef), next_cursor: Nullable(Type.String()) }),
            ...errors(401, 403, 404, 409),
          },
        },
      },
      async (request) => listSpeechJobs(deps, request.actor!, request.params.id, request.query),
    );

    app.get(
      '/speech/jobs/:id',
      {
        config: { access: access.to('attachments') },
        schema: {
          operationId: 'getSpeechJob',
          tags,
          summary: 'One speech job',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: OneJob, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ job: await getSpeechJob(deps, request.actor!, request.params.id) }),
    );
  };
