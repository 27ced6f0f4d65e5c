import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Quotes a name for Content-Disposition as the HTML form encoding does: `"`, CR and LF escaped. */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/**
 * A `multipart/form-data` body built in one buffer. fetch() streams a FormData body from an
 * async generator that keeps enqueuing after an abort has closed the stream, which surfaces as
 * an unhandled `ERR_INVALID_STATE` on Node 24 when a call is cancelled mid-upload; a buffer is
 * handed over whole, so cancelling a call is clean.
 */
export function multipartBody(fields: Record<string, string>, file: FilePart): { body: Buffer; contentType: string } {
  const boundary = `----tasktree${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.name)}; filename=${quoted(file.filename)}\r\n` +
        `Content-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
    ),
  );
  parts.push(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
