import { useState } from 'preact/hooks';
import { attachments } from '../../api/endpoints';
import { uploadAttachment } from '../../api/upload';
import type { Attachment } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { formatBytes } from '../../i18n/format';
import type { Loaded } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { Confirm } from '../../components/Confirm';
import { Thumbnail } from './Thumbnail';
import { Field } from '../../components/Field';

/** A task's files (a viewer only reads them): the list (loaded by the panel, shared with transcription), an upload with a progress bar, photo thumbnails and delete. */
export function Attachments({
  taskId,
  list,
  canWrite,
}: {
  taskId: string;
  list: Loaded<Attachment[]>;
  canWrite: boolean;
}) {
  const t = useT();
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [deleting, setDeleting] = useState<Attachment | null>(null);

  // A failed upload leaves the file chosen in the input, so trying again is one click.
  const { error, run: upload } = useSubmit(async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (file === undefined) return;
    setProgress({ name: file.name, fraction: 0 });
    try {
      const attachment = await uploadAttachment(taskId, file, (fraction) => setProgress({ name: file.name, fraction }));
      list.setData((old) => [...(old ?? []), attachment]);
      input.value = '';
    } finally {
      setProgress(null);
    }
  });

  return (
    <section class="panel-section" aria-labelledby="files-title">
      <h3 id="files-title">{t('files.title')}</h3>
      <ErrorNote error={list.error} onRetry={list.reload} />
      {list.data !== null && list.data.length === 0 ? <p class="muted small-text">{t('files.empty')}</p> : null}
      <ul class="files">
        {(list.data ?? []).map((a) => (
          <li key={a.id} class="file">
            {a.content_type.startsWith('image/') ? (
              <Thumbnail attachment={a} />
            ) : (
              <span class="file-icon" aria-hidden="true">
                📄
              </span>
            )}
            <span class="file-meta">
              <span class="file-name">{a.filename}</span>
              <span class="muted small-text">{formatBytes(a.size)}</span>
              {a.metadata_removed.length > 0 ? (
                <span class="muted small-text">{t('files.removed', { what: a.metadata_removed.join(', ') })}</span>
              ) : null}
            </span>
            {canWrite ? (
              <button
                type="button"
                class="btn small danger"
                aria-describedby={`file-${a.id}`}
                onClick={() => setDeleting(a)}
              >
                {t('common.delete')}
              </button>
            ) : null}
            <span id={`file-${a.id}`} class="visually-hidden">
              {a.filename}
            </span>
          </li>
        ))}
      </ul>
      {canWrite ? (
        <Field label={t('files.upload')}>
          {(id) => (
            <input id={id} type="file" onChange={(e) => void upload(e.currentTarget)} disabled={progress !== null} />
          )}
        </Field>
      ) : null}
      {progress !== null ? (
        <div class="stack">
          <span class="small-text">{t('files.uploading', { name: progress.name })}</span>
          <progress
            class="progress"
            max={1}
            value={progress.fraction}
            aria-label={t('files.uploading', { name: progress.name })}
          />
        </div>
      ) : null}
      <ErrorNote error={error} />
      {deleting !== null ? (
        <Confirm
          title={t('files.deleteTitle')}
          text={t('files.deleteText', { name: deleting.filename })}
          confirmLabel={t('common.delete')}
          onConfirm={async () => {
            await attachments.remove(deleting.id);
            list.setData((old) => (old ?? []).filter((x) => x.id !== deleting.id));
          }}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}
