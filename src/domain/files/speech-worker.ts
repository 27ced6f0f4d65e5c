import { buffer } from 'node:stream/consumers';
import type { Config } from '../../config.js';
import type { Db } from '../../store/db.js';
import type { BlobStore } from './blob-store.js';
import { nowIso } from '../ids.js';
import { multipartBody } from './multipart-body.js';

const POLL_EVERY_MS = 1_000;
/** Provider 5xx, timeouts and network failures are retried this many times in all. */
export const MAX_ATTEMPTS = 5;
const BACKOFF_MAX_MS = 60_000;

type Outcome =
  | { kind: 'done'; transcript: string }
  | { kind: 'refused'; error: string }
  | { kind: 'retry'; error: string }
  | { kind: 'stopped' };

interface Claimed {
  id: string;
  attachment_id: string;
  attempts: number;
}

/**
 * Works speech jobs from the database, one at a time per process: queued → running →
 * succeeded | failed. A claim is a compare-and-set on (status, run_at), so instances never run
 * one job twice; a running job holds a lease (its run_at), and a job whose process died is
 * claimed again once the lease runs out. Stopping puts the job in hand back in the queue.
 */
export class SpeechWorker {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private abort = new AbortController();
  private started = false;
  /** The first retry waits this long, each next one twice as long (at most a minute). */
  retryBaseMs = 1_000;
  /** Where a failing drain is reported; the composition root points it at the log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly blobs: BlobStore,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.nudge(), POLL_EVERY_MS);
    this.timer.unref();
    this.nudge();
  }

  /** Look for due jobs now (a job was just queued). Does nothing where the worker is not started (CLI). */
  nudge(): void {
    if (!this.started || this.busy !== null || this.abort.signal.aborted) return;
    this.busy = this.drain()
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.busy = null;
      });
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.abort.abort();
    await this.busy;
  }

  private get leaseMs(): number {
    return this.config.speech.timeoutMs + 60_000;
  }

  private async drain(): Promise<void> {
    if (this.config.speech.apiUrl === null) return;
    // Checked before every claim: a stopping worker must not take another job.
    while (!this.abort.signal.aborted) {
      const job = await this.claim();
      if (job === null) return;
      await this.settle(job, await this.transcribe(job));
    }
  }

  private async claim(): Promise<Claimed | null> {
    const now = nowIso();
    const candidates = await this.db
      .selectFrom('speech_jobs')
      .select(['id', 'attachment_id', 'attempts', 'status', 'run_at'])
      .where('status', 'in', ['queued', 'running'])
      .where('run_at', '<=', now)
      .orderBy('seq')
      .limit(5)
      .execute();
    for (const candidate of candidates) {
      const taken = await this.db
        .updateTable('speech_jobs')
        .set({
          status: 'running',
          run_at: new Date(Date.now() + this.leaseMs).toISOString(),
          attempts: candidate.attempts + 1,
          updated_at: now,
        })
        .where('id', '=', candidate.id)
        .where('status', '=', candidate.status)
        .where('run_at', '=', candidate.run_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1)
        return { id: candidate.id, attachment_id: candidate.attachment_id, attempts: candidate.attempts + 1 };
    }
    return null;
  }

  /** One call to `POST {SPEECH_API_URL}/audio/transcriptions`, OpenAI style. */
  private async transcribe(job: Claimed): Promise<Outcome> {
    const attachment = await this.db
      .selectFrom('attachments')
      .select(['filename', 'content_type', 'blob_key'])
      .where('id', '=', job.attachment_id)
      .executeTakeFirst();
    if (attachment === undefined) return { kind: 'refused', error: 'The audio attachment no longer exists.' };
    const { apiUrl, apiKey, model, timeoutMs } = this.config.speech;
    // One job at a time per process, and audio is at most 25 MiB: the file is read whole (see multipartBody).
    const bytes = await buffer(await this.blobs.get(attachment.blob_key));
    const { body, contentType } = multipartBody(
      { model },
      { name: 'file', filename: attachment.filename, contentType: attachment.content_type, bytes },
    );
    const url = `${apiUrl!.replace(/\/+$/, '')}/audio/transcriptions`;
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType, ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }) },
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(timeoutMs)]),
      });
      const text = await response.text();
      if (response.ok) {
        const transcript = (JSON.parse(text) as { text?: unknown }).text;
        if (typeof transcript !== 'string')
          return { kind: 'retry', error: 'The provider answered without a transcript.' };
        return { kind: 'done', transcript };
      }
      const reason = providerMessage(text);
      if (response.status >= 500 || response.status === 429 || response.status === 408)
        return { kind: 'retry', error: `The provider failed (${response.status})${reason}.` };
      return { kind: 'refused', error: `The provider refused the audio (${response.status})${reason}.` };
    } catch (err) {
      if (this.abort.signal.aborted) return { kind: 'stopped' };
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return {
        kind: 'retry',
        error: timedOut
          ? `The provider did not answer within ${timeoutMs / 1000} s.`
          : 'The provider could not be reached.',
      };
    }
  }

  private async settle(job: Claimed, outcome: Outcome): Promise<void> {
    const now = nowIso();
    const update = this.db.updateTable('speech_jobs').where('id', '=', job.id).where('status', '=', 'running');
    switch (outcome.kind) {
      case 'done':
        await update
          .set({ status: 'succeeded', transcript: outcome.transcript, error: null, updated_at: now, finished_at: now })
          .execute();
        return;
      case 'refused':
        await update.set({ status: 'failed', error: outcome.error, updated_at: now, finished_at: now }).execute();
        return;
      case 'stopped':
        // Shutting down: back in the queue, and this attempt does not count.
        await update.set({ status: 'queued', run_at: now, attempts: job.attempts - 1, updated_at: now }).execute();
        return;
      case 'retry':
        if (job.attempts >= MAX_ATTEMPTS) {
          await update
            .set({
              status: 'failed',
              error: `${outcome.error} Gave up after ${MAX_ATTEMPTS} attempts.`,
              updated_at: now,
              finished_at: now,
            })
            .execute();
        } else {
          const wait = Math.min(this.retryBaseMs * 2 ** (job.attempts - 1), BACKOFF_MAX_MS);
          await update
            .set({
              status: 'queued',
              error: outcome.error,
              run_at: new Date(Date.now() + wait).toISOString(),
              updated_at: now,
            })
            .execute();
          setTimeout(() => this.nudge(), wait).unref();
        }
    }
  }
}

/** The provider's own error message, when it gave one in OpenAI's shape, kept short. */
function providerMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message !== '' ? `: ${message.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}
