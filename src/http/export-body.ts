import { closeSync, createReadStream, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportHead, ExportListKey, ExportSink } from '../domain/trees/export.js';
import { tempName } from '../domain/files/temp-files.js';
import { TreeExport } from './schemas/export.js';
import { bodyTagger } from './etag.js';

const Head = Type.Pick(TreeExport, ['schema_version', 'exported_at', 'tree']);

/**
 * Lists whose records (presentProject, presentTask) hold exactly their schema's fields, in its
 * order, with JSON's own types (strings, integers, null, arrays of strings): for them the native
 * JSON.stringify writes the bytes the schema's serializer would, and a page at once costs a
 * third as much on Node 20 (26 ms against 62-90 ms for 10,000 tasks). A task list is nearly all
 * of a large export. test/http/export-plain-lists.test.ts holds the presenters to it.
 */
export const PLAIN_LISTS: ReadonlySet<ExportListKey> = new Set(['projects', 'tasks']);

/**
 * The export's JSON body, written as the domain reads it. Each page of records is serialized by
 * the route's own serializer for the list's items (or, for PLAIN_LISTS, by JSON.stringify, which
 * writes the same bytes), so the bytes are those of the whole document serialized at once,
 * then hashed for the ETag and spooled to a temp file. The ETag is sent before the body, so the
 * whole body waits somewhere until it is known: in the kernel's page cache, not in the process,
 * where a 10,000-task document (8 MB) stays in V8's old generation or in malloc's arenas long
 * after the answer went out.
 */
export class ExportBody implements ExportSink {
  private readonly tag: ReturnType<typeof bodyTagger>;
  private readonly fd: number;
  private list: ExportListKey | null = null;
  private empty = true;
  private length = 0;

  constructor(
    private readonly reply: FastifyReply,
    request: FastifyRequest,
    spoolDir: string,
  ) {
    this.tag = bodyTagger(request);
    mkdirSync(spoolDir, { recursive: true });
    const path = join(spoolDir, tempName());
    this.fd = openSync(path, 'wx+');
    // The file lives as long as its descriptor: nothing is left behind, whatever happens next.
    unlinkSync(path);
  }

  head(head: ExportHead): void {
    // Left open after the tree: the lists follow as members of the same object.
    this.write(this.reply.serializeInput(head, Head).slice(0, -1));
  }

  records(key: ExportListKey, page: unknown[]): void {
    if (key !== this.list) {
      this.write(`${this.list === null ? '' : ']'},${JSON.stringify(key)}:[`);
      this.list = key;
      this.empty = true;
    }
    if (page.length === 0) return;
    this.write(`${this.empty ? '' : ','}${this.serialized(key, page)}`);
    this.empty = false;
  }

  /** The finished document (a stream that closes the spool when it ends or is destroyed), its length and its ETag. */
  end(): { body: Readable; length: number; etag: string } {
    this.write(this.list === null ? '}' : ']}');
    return { body: createReadStream('', { fd: this.fd, start: 0 }), length: this.length, etag: this.tag.digest() };
  }

  /** A page's records, comma-separated (the list's brackets are written around the pages). */
  private serialized(key: ExportListKey, page: unknown[]): string {
    if (PLAIN_LISTS.has(key)) return JSON.stringify(page).slice(1, -1);
    const serialize = this.reply.compileSerializationSchema((TreeExport.properties[key] as { items: TSchema }).items);
    return page.map((record) => serialize(record as Record<string, unknown>)).join(',');
  }

  /** Releases the spool of an export that failed before `end`. */
  close(): void {
    closeSync(this.fd);
  }

  private write(text: string): void {
    this.tag.update(text);
    const bytes = writeSync(this.fd, text);
    // A regular file takes the whole write or fails (a full disk throws); anything else would corrupt the answer.
    if (bytes !== Buffer.byteLength(text))
      throw new Error(`the export spool took ${bytes} of ${Buffer.byteLength(text)} bytes`);
    this.length += bytes;
  }
}
