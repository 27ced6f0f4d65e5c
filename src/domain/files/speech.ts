import type { Deps } from '../deps.js';
import type { Actor } from '../actor.js';
import { requireCapability, requireRead } from '../actor.js';
import { requireTreeWrite, taskAccess, type TreeAccess } from '../access.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { checkId } from '../fields.js';
import { newId, nowIso } from '../ids.js';
import { planLimits } from '../plans.js';
import type { Page, PageInput } from '../paging.js';
import { pageOfTask } from './task-pages.js';
import { createAttachment, MAX_UPLOAD_BYTES, type Upload } from './attachments.js';
import type { SpeechJobTable } from '../../store/schema.js';
import type { Static } from '@sinclair/typebox';
import { speechJobStatuses, type SpeechJob as SpeechJobSchema } from '../schemas/files.js';

export { speechJobStatuses };
export type SpeechJobStatus = (typeof speechJobStatuses)[number];

/** What OpenAI-compatible transcription endpoints accept. */
export const SPEECH_FORMATS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

export type SpeechJob = Static<typeof SpeechJobSchema>;

export interface SpeechStatus {
  configured: boolean;
  provider: string | null;
  max_bytes: number;
  formats: string[];
}

export function presentJob(row: Omit<SpeechJobTable, 'seq' | 'attempts'>): SpeechJob {
  return {
    id: row.id,
    task_id: row.task_id,
    attachment_id: row.attachment_id,
    status: row.status as SpeechJobStatus,
    transcript: row.transcript,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

/** Whether transcription can run here, and with what (never the key). */
export function speechStatus(deps: Deps, actor: Actor): SpeechStatus {
  requireRead(actor);
  const url = deps.config.speech.apiUrl;
  return {
    configured: url !== null,
    provider: url === null ? null : new URL(url).host,
    max_bytes: MAX_UPLOAD_BYTES,
    formats: SPEECH_FORMATS,
  };
}

/**
 * The checks before any byte of audio is read: the actor's capability (scopes, its own plan for
 * API writes), the provider, the task, then the feature on the tree owner's plan, as every plan
 * limit of a shared tree is its owner's. Returns the task's tree access.
 */
async function checkTranscription(deps: Deps, actor: Actor, taskId: string): Promise<TreeAccess> {
  requireCapability(actor, 'transcribe');
  if (deps.config.speech.apiUrl === null)
    throw new DomainError(
      'speech_unavailable',
      'No speech provider is configured (SPEECH_API_URL); no job was created.',
    );
  const { access } = await taskAccess(deps.db, actor, taskId);
  requireTreeWrite(access);
  if (!planLimits[access.ownerPlan].transcription) {
    throw new DomainError('plan_limit_reached', 'Transcription needs the Sprout or Grove plan.', [
      { limit: 'transcription', value: 0 },
    ]);
  }
  return access;
}

export type TranscriptionSource = { attachmentId: string } | { upload: () => Promise<Upload> };

/**
 * Queues a transcription of an attachment of the task, or of an uploaded audio file (stored as
 * an attachment first). The in-process worker picks the job up. Without a provider: 503 and
 * nothing is created.
 * @throws speech_unavailable, insufficient_scope, plan_read_only, plan_limit_reached, not_found, conflict
 */
export async function createTranscription(
  deps: Deps,
  actor: Actor,
  taskId: string,
  source: TranscriptionSource,
): Promise<SpeechJob> {
  const access = await checkTranscription(deps, actor, taskId);
  let attachmentId: string;
  if ('attachmentId' in source) {
    if (source.attachmentId.length > 160) throw invalid('/attachment_id', 'must be at most 160 characters');
    const attachment = await deps.db
      .selectFrom('attachments')
      .select(['id', 'task_id'])
      .where('id', '=', source.attachmentId)
      .where('owner_id', '=', access.ownerId)
      .executeTakeFirst();
    if (attachment === undefined) throw notFound('attachment');
    if (attachment.task_id !== taskId)
      throw new DomainError('conflict', 'The attachment belongs to another task.', [
        { path: '/attachment_id', message: 'must be an attachment of this task' },
      ]);
    attachmentId = attachment.id;
  } else {
    attachmentId = (await createAttachment(deps, actor, taskId, source.upload)).id;
  }
  const now = nowIso();
  const row = {
    id: newId('spj'),
    owner_id: access.ownerId,
    task_id: taskId,
    attachment_id: attachmentId,
    status: 'queued',
    transcript: null,
    error: null,
    run_at: now,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
  await deps.db.insertInto('speech_jobs').values(row).execute();
  deps.speech.nudge();
  return presentJob(row);
}

/** A transcript is content of its audio: read + attachments, as the content is. @throws insufficient_scope, not_found */
export async function getSpeechJob(deps: Deps, actor: Actor, id: string): Promise<SpeechJob> {
  requireCapability(actor, 'attachments');
  checkId('/id', id);
  // Found by id, then judged by its task's tree: the actor's own, or one shared with them.
  const row = await deps.db.selectFrom('speech_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound('speech job');
  await taskAccess(deps.db, actor, row.task_id).catch(() => {
    throw notFound('speech job');
  });
  return presentJob(row);
}

/** Needs read + attachments, as getSpeechJob. @throws insufficient_scope, not_found, invalid_cursor */
export async function listSpeechJobs(
  deps: Deps,
  actor: Actor,
  taskId: string,
  input: PageInput,
): Promise<Page<SpeechJob>> {
  requireCapability(actor, 'attachments');
  const { rows, next_cursor } = await pageOfTask(deps, actor, 'speech_jobs', 'transcriptions', taskId, input);
  return { items: rows.map(presentJob), next_cursor };
}
