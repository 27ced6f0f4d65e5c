import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { DomainError } from '../errors.js';

/** CONTRACT §10: up to 10,000 rows and 8 MiB per file. */
export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
export const importColumns = ['title', 'text', 'notes', 'status', 'deadline', 'color', 'project', 'assignee'] as const;
export type ImportColumn = (typeof importColumns)[number];

/** A problem in the file, as a spreadsheet shows it: the header is row 1. */
export interface RowProblem {
  row: number;
  column: string | null;
  message: string;
}

export interface CsvRecord {
  row: number;
  values: Partial<Record<ImportColumn, string>>;
}

export interface ParsedCsv {
  records: CsvRecord[];
  problems: RowProblem[];
}

function tooLarge(what: string): DomainError {
  return new DomainError('payload_too_large', `The file is over the import limit of ${what}.`, [
    { max_rows: IMPORT_MAX_ROWS, max_bytes: IMPORT_MAX_BYTES },
  ]);
}

/**
 * Reads a CSV stream (RFC 4180 quoting, UTF-8 with or without BOM, CRLF or LF) into records keyed
 * by the header. Bad bytes, a broken quote, unknown or repeated columns and rows of the wrong
 * width become problems; only size limits (413) stop the read early.
 * @throws payload_too_large
 */
export async function readCsv(source: Readable): Promise<ParsedCsv> {
  const problems: RowProblem[] = [];
  const records: CsvRecord[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  // Counts and decodes as bytes arrive: the size limit holds however the body is sent.
  const decode = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > IMPORT_MAX_BYTES) return callback(tooLarge('8 MiB'));
      try {
        callback(null, decoder.decode(chunk, { stream: true }));
      } catch {
        callback(new BadEncoding());
      }
    },
    flush(callback) {
      try {
        callback(null, decoder.decode());
      } catch {
        callback(new BadEncoding());
      }
    },
  });
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  decode.on('error', (err) => parser.destroy(err));
  source.on('error', (err) => parser.destroy(err));
  source.pipe(decode).pipe(parser);
  let header: (ImportColumn | null)[] | null = null;
  let row = 0;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      row += 1;
      if (header === null) {
        header = readHeader(fields, problems);
        continue;
      }
      if (row - 1 > IMPORT_MAX_ROWS) throw tooLarge(`${IMPORT_MAX_ROWS} rows`);
      if (fields.length !== header.length) {
        problems.push({ row, column: null, message: `has ${fields.length} columns; the header has ${header.length}` });
        continue;
      }
      const values: CsvRecord['values'] = {};
      header.forEach((column, i) => {
        if (column !== null) values[column] = fields[i]!;
      });
      records.push({ row, values });
    }
  } catch (err) {
    // Stop reading but leave the request open, so the answer can still be sent (the route closes the connection).
    source.unpipe(decode);
    source.resume();
    if (err instanceof DomainError) throw err;
    if (err instanceof BadEncoding) problems.push({ row: row + 1, column: null, message: 'is not valid UTF-8 text' });
    else problems.push({ row: row + 1, column: null, message: csvMessage(err) });
  }
  if (header === null && problems.length === 0)
    problems.push({ row: 1, column: null, message: 'a header row is required, with at least a "title" column' });
  return { records, problems };
}

class BadEncoding extends Error {}

function readHeader(fields: string[], problems: RowProblem[]): (ImportColumn | null)[] {
  const seen = new Set<string>();
  const header = fields.map((raw) => {
    const name = raw.trim().toLowerCase();
    if (!(importColumns as readonly string[]).includes(name)) {
      problems.push({
        row: 1,
        column: raw.slice(0, 80),
        message: `is not a known column (${importColumns.join(', ')})`,
      });
      return null;
    }
    if (seen.has(name)) problems.push({ row: 1, column: name, message: 'appears twice' });
    seen.add(name);
    return name as ImportColumn;
  });
  if (!seen.has('title')) problems.push({ row: 1, column: 'title', message: 'is required' });
  return header;
}

/** csv-parse's messages name its own options; say what is wrong in the file instead. */
function csvMessage(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'CSV_QUOTE_NOT_CLOSED') return 'has a quote that is never closed';
  if (code.startsWith('CSV_INVALID_CLOSING_QUOTE')) return 'has a quote inside a field that is not doubled';
  return 'could not be read as CSV';
}
