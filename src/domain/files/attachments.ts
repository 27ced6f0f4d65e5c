import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { Actor } from '../actor.js';
import { requireCapability } from '../actor.js';
import { requireTreeWrite, taskAccess, type TreeAccess } from '../access.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { checkId } from '../fields.js';
import { hmac, safeEqual } from '../crypto.js';
import { newId } from '../ids.js';
import { planLimits } from '../plans.js';
import type { Page, PageInput } from '../paging.js';
import { pageOfTask } from './task-pages.js';
import { checkStorage, limitReached, storageUsed } from '../limits.js';
import { BlobStoreUnavailable, blobKey, TooLarge, type ByteRange } from './blob-store.js';
import type { Received } from './temp-files.js';
import { PhotoNotCleaned, sniffPhoto } from './photo-metadata.js';
import { servedContentType } from './served-type.js';
import type { DeleteCollector } from '../delete-collector.js';
import type { ExportSection } from '../trees/export-section.js';
import { sumTextBytes } from '../../store/text-bytes.js';
import type { Db, Trx } from '../../store/db.js';
import { lockedTaskAccess } from '../trees/move.js';
import type { AttachmentTable } from '../../store/schema.js';
import { write } from '../write.js';
import type { Static } from '@sinclair/typebox';
import type { Attachment as AttachmentSchema } from '../schemas/files.js';

/** CONTRACT §12: 25 MiB of file content; one byte more is 413. */
export const MAX_UPLOAD_BYTES = 26_214_400;
/** Signed content links live at most 5 minutes (SPEC). */
export const CONTENT_LINK_TTL_S = 300;

export type Attachment = Static<typeof AttachmentSchema>;

type AttachmentRow = Omit<AttachmentTable, 'seq'>;

export function presentAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    task_id: row.task_id,
    filename: row.filename,
    content_type: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    metadata_removed: JSON.parse(row.metadata_removed) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * A name that is safe in a path and in a header: the last path segment only, no control or
 * bidi characters, at most 255 characters with the extension kept, never empty.
 */
export function sanitizeFilename(name: string | undefined): string {
  const segment = (name ?? '').split(/[/\\]/).pop() ?? '';
  let clean = segment
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  clean = clean.replace(/^\.+/, '');
  if (clean.length > 255) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
    clean = clean.slice(0, 255 - ext.length) + ext;
  }
  return clean === '' ? 'file' : clean;
}

/** A client's declared type, kept only when it looks like a media type. */
function declaredType(value: string | undefined): string {
  return value !== undefined && /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i.test(value)
    ? value.toLowerCase()
    : 'application/octet-stream';
}

export interface Upload {
  file: Readable;
  contentType: string | undefined;
  /** Reads what follows the file and settles the name (the `filename` field, else the part's); throws on a second file. */
  rest(): Promise<{ filename: string | undefined }>;
}

/**
 * Stores one uploaded file on a task. The task is checked before anything is read; the file
 * is streamed to a local temp file (never held in memory), photos are cleaned of metadata, and
 * the cleaned file is streamed into the blob store, which counts and hashes what it stores.
 * Then the quota is checked and the row inserted in one transaction. Any failure removes the
 * temp file and the object; a crash leaves at most an object without a row, which the blob
 * sweep (at start, then hourly) removes.
 * @throws insufficient_scope, plan_read_only, not_found, forbidden, payload_too_large, validation_failed, plan_limit_reached, storage_unavailable
 */
export async function createAttachment(
  deps: Deps,
  actor: Actor,
  taskId: string,
  upload: () => Promise<Upload>,
): Promise<Attachment> {
  requireCapability(actor, 'attachmentWrites');
  const before = (await taskAccess(deps.db, actor, taskId)).access;
  requireTreeWrite(before);
  const { file, contentType, rest } = await upload();
  let received: Received;
  try {
    received = await deps.tempFiles.receive(file, MAX_UPLOAD_BYTES);
  } catch (err) {
    // The multipart parser's own limit sits one byte higher and maps to 413 in the HTTP layer.
    if (err instanceof TooLarge)
      throw new DomainError(
        'payload_too_large',
        `A file may have at most ${MAX_UPLOAD_BYTES} bytes (25 MiB); nothing was stored.`,
      );
    throw err;
  }
  const id = newId('att');
  const key = blobKey(before.ownerId, id);
  let written = false;
  try {
    const { filename } = await rest();
    const { photo, metadataRemoved } = await cleanPhoto(deps, received.path);
    const limit = planLimits[before.ownerPlan].attachmentBytes;
    // A file that cannot fit is refused before its bytes travel to the store; the exact check is the one under the owner lock below.
    const size = photo === null ? received.size : (await stat(received.path)).size;
    if ((await storageUsed(deps.db, before.ownerId)) + size > limit)
      throw limitReached('attachment_storage_bytes', limit);
    written = true;
    const stored = await deps.blobs.put(key, createReadStream(received.path));
    return await write(deps, actor, async (w) => {
      const { trx } = w;
      // Locked as a move locks it: the file is charged to the owner of the tree its task is in at
      // commit, wherever it moved since the upload began (the row keeps the key it was stored under).
      const { access } = await lockedTaskAccess(w, taskId);
      await checkStorage(trx, access, stored.size);
      const { now } = w;
      const row = {
        id,
        owner_id: access.ownerId,
        task_id: taskId,
        filename: sanitizeFilename(filename),
        content_type: photo?.contentType ?? declaredType(contentType),
        size: stored.size,
        sha256: stored.sha256,
        metadata_removed: JSON.stringify(metadataRemoved),
        created_at: now,
        updated_at: now,
        blob_key: key,
      };
      await trx.insertInto('attachments').values(row).execute();
      await w.record({
        ownerId: access.ownerId,
        treeId: access.tree.id,
        entity: 'attachment',
        entityId: id,
        action: 'created',
        changes: { task_id: { from: null, to: taskId }, filename: { from: null, to: row.filename } },
      });
      return presentAttachment(row);
    });
  } catch (err) {
    // The store may be what failed: then the sweep removes the object once it answers again.
    if (written) await deps.blobs.remove(key).catch(() => {});
    if (err instanceof BlobStoreUnavailable) throw storageUnavailable();
    throw err;
  } finally {
    await deps.tempFiles.discard(received.path);
  }
}

/** Photos lose their metadata in place, in the temp file, before anything is stored. @throws validation_failed */
async function cleanPhoto(
  deps: Deps,
  path: string,
): Promise<{ photo: Awaited<ReturnType<typeof sniffPhoto>>; metadataRemoved: string[] }> {
  const photo = await sniffPhoto(path);
  if (photo === null) return { photo, metadataRemoved: [] };
  try {
    return { photo, metadataRemoved: await deps.photos.clean(path, photo) };
  } catch (err) {
    if (!(err instanceof PhotoNotCleaned)) throw err;
    throw invalid('/file', 'the image is damaged or its metadata could not be removed; it was not stored');
  }
}

function storageUnavailable(): DomainError {
  return new DomainError('storage_unavailable', 'The file store is unavailable; nothing was stored. Try again later.');
}

/** @throws not_found */
async function attachmentAccess(
  db: Db | Trx,
  actor: Actor,
  id: string,
  write = false,
): Promise<{ row: AttachmentRow; access: TreeAccess }> {
  checkId('/id', id);
  // Found by id, then judged by its task's tree: the actor's own, or one shared with them.
  const row = await db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound('attachment');
  const { access } = await taskAccess(db, actor, row.task_id).catch(() => {
    throw notFound('attachment');
  });
  if (write) requireTreeWrite(access);
  return { row, access };
}

/** @throws not_found, invalid_cursor */
export async function listAttachments(
  deps: Deps,
  actor: Actor,
  taskId: string,
  input: PageInput,
): Promise<Page<Attachment>> {
  const { rows, next_cursor } = await pageOfTask(deps, actor, 'attachments', 'attachments', taskId, input);
  return { items: rows.map(presentAttachment), next_cursor };
}

function linkSignature(secret: string, id: string, expires: number): string {
  return hmac(secret, `attachment-content:${id}:${expires}`);
}

export interface AttachmentLink {
  attachment: Attachment;
  content_url: string;
  content_url_expires_at: string;
}

/**
 * The record and a signed content link that works without credentials for 5 minutes. The link
 * hands out the content, so it needs what the content needs: read + attachments.
 * @throws insufficient_scope, not_found
 */
export async function getAttachment(deps: Deps, actor: Actor, id: string, now = Date.now()): Promise<AttachmentLink> {
  requireCapability(actor, 'attachments');
  const { row } = await attachmentAccess(deps.db, actor, id);
  const expires = Math.floor(now / 1000) + CONTENT_LINK_TTL_S;
  const url = new URL(`/api/v1/attachments/${encodeURIComponent(id)}/content`, deps.config.publicUrl);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', linkSignature(deps.config.secret, id, expires));
  return {
    attachment: presentAttachment(row),
    content_url: url.toString(),
    content_url_expires_at: new Date(expires * 1000).toISOString(),
  };
}

export interface Content {
  attachment: Attachment;
  /** What the bytes are served as, which is not always the declared `content_type` (served-type.ts). */
  servedType: string;
  /** Opens the stored bytes, or one range of them. @throws storage_unavailable */
  read(range?: ByteRange): Promise<Readable>;
}

function contentOf(deps: Deps, row: AttachmentRow): Content {
  return {
    attachment: presentAttachment(row),
    servedType: servedContentType(row.content_type),
    read: (range) =>
      deps.blobs.get(row.blob_key, range).catch((err: unknown) => {
        throw err instanceof BlobStoreUnavailable ? storageUnavailable() : err;
      }),
  };
}

/** Content for a credential holding read + attachments. @throws insufficient_scope, not_found, storage_unavailable (on read) */
export async function contentFor(deps: Deps, actor: Actor, id: string): Promise<Content> {
  requireCapability(actor, 'attachments');
  const { row } = await attachmentAccess(deps.db, actor, id);
  return contentOf(deps, row);
}

/** Content for a signed link: a valid, unexpired signature (else unauthenticated) for a record that still exists (else not_found). */
export async function contentBySignature(
  deps: Deps,
  id: string,
  expires: string,
  signature: string,
  now = Date.now(),
): Promise<Content> {
  const at = Number(expires);
  const expected = Number.isInteger(at) ? linkSignature(deps.config.secret, id, at) : '';
  if (!Number.isInteger(at) || !safeEqual(expected, signature))
    throw new DomainError('unauthenticated', 'The content link is not valid.');
  if (at * 1000 < now || at * 1000 > now + CONTENT_LINK_TTL_S * 1000 + 60_000)
    throw new DomainError('unauthenticated', 'The content link has expired; ask for a new one.');
  const row = await deps.db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound('attachment');
  return contentOf(deps, row);
}

/**
 * Removes an object whose row is gone. The delete has committed, so an unreachable store does
 * not fail it: the object has no row any more and the blob sweep removes it later.
 */
async function removeBlob(deps: Deps, key: string): Promise<void> {
  await deps.blobs.remove(key).catch((err: unknown) => {
    if (!(err instanceof BlobStoreUnavailable)) throw err;
  });
}

/** Removes the record, frees its quota, then the blob. @throws not_found, forbidden */
export async function deleteAttachment(deps: Deps, actor: Actor, id: string): Promise<void> {
  requireCapability(actor, 'attachmentWrites');
  await write(deps, actor, async (w) => {
    const { trx } = w;
    const { row, access } = await attachmentAccess(trx, actor, id, true);
    await trx.deleteFrom('attachments').where('id', '=', id).execute();
    await w.record({
      ownerId: access.ownerId,
      treeId: access.tree.id,
      entity: 'attachment',
      entityId: id,
      action: 'deleted',
      changes: { task_id: { from: row.task_id, to: null }, filename: { from: row.filename, to: null } },
    });
    return row;
  }).then((row) => removeBlob(deps, row.blob_key));
}

/** Deleting tasks, projects or trees removes their attachments' blobs once the delete commits. */
export const collectAttachmentBlobs: DeleteCollector = async (trx, deps, doomed) => {
  let query = trx
    .selectFrom('attachments')
    .innerJoin('tasks', 'tasks.id', 'attachments.task_id')
    .select('attachments.blob_key');
  if ('taskIds' in doomed) query = query.where('attachments.task_id', 'in', doomed.taskIds);
  else if ('projectIds' in doomed) query = query.where('tasks.project_id', 'in', doomed.projectIds);
  else query = query.where('tasks.tree_id', '=', doomed.treeId);
  const blobs = await query.execute();
  return async () => {
    for (const blob of blobs) await removeBlob(deps, blob.blob_key);
  };
};

/** The export lists attachment records (metadata only, never content). */
export const attachmentsExportSection: ExportSection<Selectable<AttachmentTable>> = {
  key: 'attachments',
  async measure(trx, deps, treeId) {
    const { n, bytes } = await trx
      .selectFrom('attachments')
      .innerJoin('tasks', 'tasks.id', 'attachments.task_id')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        sumTextBytes(trx, ['filename', 'content_type', 'metadata_removed']).as('bytes'),
      ])
      .where('tasks.tree_id', '=', treeId)
      .executeTakeFirstOrThrow();
    return { count: Number(n), bytes: Number(bytes ?? 0) };
  },
  readPage: (trx, _deps, treeId, after, limit) =>
    trx
      .selectFrom('attachments')
      .innerJoin('tasks', 'tasks.id', 'attachments.task_id')
      .selectAll('attachments')
      .where('tasks.tree_id', '=', treeId)
      .where('attachments.seq', '>', after)
      .orderBy('attachments.seq')
      .limit(limit)
      .execute(),
  present: (row) => presentAttachment(row),
};
