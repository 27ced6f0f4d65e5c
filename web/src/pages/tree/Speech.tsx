import { useEffect } from 'preact/hooks';
import { speech } from '../../api/endpoints';
import type { Attachment } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';

/** Transcription (starting one is a write, so a viewer only reads the transcripts): whether the service offers it, the task's jobs, and starting one from an audio attachment. */
export function Speech({ taskId, files, canWrite }: { taskId: string; files: Attachment[]; canWrite: boolean }) {
  const t = useT();
  const status = useLoad(() => speech.status(), []);
  const jobs = useLoad(() => speech.jobs(taskId), [taskId]);
  const audio = files.filter((a) => a.content_type.startsWith('audio/'));
  // A queued or running job is looked at again shortly, so its transcript appears without a click.
  const pending = (jobs.data ?? []).some((job) => job.status === 'queued' || job.status === 'running');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void jobs.reload(), 1500);
    return () => clearTimeout(timer);
  }, [pending, jobs.data, jobs.reload]);

  const { error, run: transcribe } = useSubmit(async (attachmentId: string) => {
    const job = await speech.transcribe(taskId, attachmentId);
    jobs.setData((old) => [...(old ?? []), job]);
  });

  return (
    <section class="panel-section" aria-labelledby="speech-title">
      <div class="spread">
        <h3 id="speech-title">{t('speech.title')}</h3>
        <button type="button" class="btn ghost small" onClick={() => void jobs.reload()}>
          {t('common.refresh')}
        </button>
      </div>
      {status.data !== null ? (
        <p class="muted small-text">
          {status.data.configured
            ? t('speech.configured', { provider: status.data.provider ?? '' })
            : t('speech.notConfigured')}
        </p>
      ) : null}
      <ErrorNote error={status.error ?? jobs.error} />
      {status.data?.configured === true && canWrite ? (
        <ul class="files">
          {audio.map((a) => (
            <li key={a.id} class="file">
              <span class="file-name">{a.filename}</span>
              <button type="button" class="btn small" onClick={() => void transcribe(a.id)}>
                {t('speech.transcribe')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {jobs.data !== null && jobs.data.length > 0 ? (
        <ul class="jobs">
          {jobs.data.map((job) => (
            <li key={job.id}>
              <span
                class={job.status === 'failed' ? 'badge red' : job.status === 'succeeded' ? 'badge' : 'badge amber'}
              >
                {t(`speech.jobStatus.${job.status}`)}
              </span>
              {job.transcript !== null ? <p class="transcript">{job.transcript}</p> : null}
              {job.error !== null ? <p class="inline-error">{job.error}</p> : null}
            </li>
          ))}
        </ul>
      ) : jobs.data !== null ? (
        <p class="muted small-text">{t('speech.noJobs')}</p>
      ) : null}
      <ErrorNote error={error} />
    </section>
  );
}
