import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** A multipart body that breaks off, is malformed or stalls: 400, and the upload stores nothing. */
export function badUpload(message: string): DomainError {
  return new DomainError('validation_failed', `The upload was refused: ${message}; nothing was stored.`, [
    { path: '/', message, in: 'body' },
  ]);
}

/**
 * Busboy's parse failures ("Malformed part header", "Unexpected end of form", a part that
 * ends early) are plain Errors; they are the client's, so they become 400. Our own errors and
 * the plugin's limits (which carry a 4xx status) pass through.
 */
export function asUploadError(err: unknown): Error {
  if (err instanceof DomainError) return err;
  const status = (err as Partial<FastifyError>).statusCode;
  if (err instanceof Error && typeof status === 'number' && status >= 400 && status < 500) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'ECONNABORTED')
    return badUpload('the body ended before it was complete');
  return badUpload(err instanceof Error ? err.message.slice(0, 200) : 'the multipart body is malformed');
}

export interface IdleWatch {
  /** Settles like `work`, or rejects with a 400 when the body stalls first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** The file part as the domain reads it: every failure of the part arrives as a 400. */
  guard(file: Readable): Readable;
}

/**
 * Arms the socket's idle timer while a streamed body is read. Node's request timeout bounds the
 * whole request but fires late and can only close the connection; a body that stops arriving
 * for `idleMs` fails the upload in the handler instead, so the temp file is removed and the
 * client, if still there, gets 400 and a closed connection. Disarmed once the body has ended.
 */
export function watchIdle(request: FastifyRequest, reply: FastifyReply, idleMs: number): IdleWatch {
  const raw = request.raw;
  const stalled = badUpload(`no data arrived for ${idleMs / 1000} s`);
  let fail: (err: DomainError) => void = () => undefined;
  const idle = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  idle.catch(() => undefined);
  let current: Readable | null = null;
  const onTimeout = () => {
    // The rest of the body will never be read: close the connection after the answer.
    reply.header('Connection', 'close');
    fail(stalled);
    current?.destroy(stalled);
  };
  const disarm = () => {
    raw.off('timeout', onTimeout);
    // Back to the server's own idle timeout (none unless one is configured).
    if (!raw.socket.destroyed) raw.socket.setTimeout(request.server.server.timeout);
  };
  if (!raw.complete) {
    raw.setTimeout(idleMs, onTimeout);
    raw.once('end', disarm);
    raw.once('close', disarm);
  }
  return {
    race: (work) => Promise.race([work, idle]),
    guard(file) {
      current = file;
      const out = new PassThrough();
      // The part may fail before the domain starts reading (it first makes its temp file); the
      // failure is kept on the stream (`errored`) and surfaces when the reader attaches.
      out.on('error', () => undefined);
      // finished() also reports a part that failed or closed before this line (busboy may have
      // read the whole buffered body by now): a missed error would leave the reader waiting forever.
      finished(file, (err) => {
        if (err) out.destroy(asUploadError(err));
      });
      // A reader that stops early (the size limit) releases the part, as a pipeline would.
      out.on('close', () => {
        if (!out.readableEnded) file.destroy();
      });
      file.pipe(out);
      return out;
    },
  };
}
