import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './types.js';

/** Attachments and speech jobs (CONTRACT §7): each domain type is the Static of its schema here. */
export const speechJobStatuses = ['queued', 'running', 'succeeded', 'failed'] as const;

export const Attachment = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    filename: Type.String(),
    content_type: Type.String({
      description:
        'as uploaded (sniffed for photos); the content is served with it only for raster images, audio, video, PDF, plain text and CSV, else as application/octet-stream',
    }),
    size: Type.Integer({ description: 'bytes stored' }),
    sha256: Type.String({ description: 'hex digest of the bytes stored' }),
    metadata_removed: Type.Array(Type.String(), {
      description:
        'kinds of photo metadata removed: gps, camera, serial_numbers, owner, maker_notes, xmp, iptc, thumbnail, photoshop, exif, png_text, trailer (data after the end of the image: an appended image, MPF pages, a motion-photo video)',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Attachment', title: 'Attachment' },
);

export const SpeechJob = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    attachment_id: Type.String(),
    status: OneOf(speechJobStatuses),
    transcript: Nullable(Type.String()),
    error: Nullable(Type.String({ description: 'why it failed, or the last failure of a job that will be retried' })),
    created_at: Timestamp,
    updated_at: Timestamp,
    finished_at: Nullable(Timestamp),
  },
  { $id: 'SpeechJob', title: 'SpeechJob' },
);
