import { DomainError, invalid } from './errors.js';
import { hmac, safeEqual, sha256 } from './crypto.js';

/** Page sizes and cursor rules of SPEC "Shared parameters" and CONTRACT §5. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 200;
export const CURSOR_MAX_LENGTH = 1024;
export const CURSOR_TTL_MS = 15 * 60 * 1000;

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** What a cursor is bound to: the actor, the endpoint, the filters (including `q`) and the limit. */
export interface CursorBinding {
  actorKey: string;
  endpoint: string;
  filters: Record<string, unknown>;
  limit: number;
}

/** Where the next page starts: after `last`, never past `high` (the newest seq at page one). */
export interface CursorPosition {
  last: number;
  high: number;
}

interface CursorPayload {
  b: string; // hash of the binding
  l: number;
  h: number;
  t: number; // issue time, ms
}

function bindingHash(binding: CursorBinding): string {
  const filters = Object.keys(binding.filters)
    .sort()
    .filter((k) => binding.filters[k] !== undefined && binding.filters[k] !== null)
    .map((k) => [k, binding.filters[k]]);
  return sha256(JSON.stringify([binding.actorKey, binding.endpoint, filters, binding.limit]));
}

export function checkLimit(limit: number | undefined): number {
  const value = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT)
    throw invalid('/limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  return value;
}

export function encodeCursor(
  secret: string,
  binding: CursorBinding,
  position: CursorPosition,
  now = Date.now(),
): string {
  const payload: CursorPayload = { b: bindingHash(binding), l: position.last, h: position.high, t: now };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${hmac(secret, `cursor:${body}`)}`;
}

/** @throws invalid_cursor (tampered, foreign, other filters or limit), cursor_expired (older than 15 minutes) */
export function decodeCursor(secret: string, binding: CursorBinding, cursor: string, now = Date.now()): CursorPosition {
  const bad = () =>
    new DomainError('invalid_cursor', 'The cursor is not valid for this request; start again without it.');
  if (cursor.length > CURSOR_MAX_LENGTH) throw bad();
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw bad();
  const body = cursor.slice(0, dot);
  if (!safeEqual(cursor.slice(dot + 1), hmac(secret, `cursor:${body}`))) throw bad();
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
  } catch {
    throw bad();
  }
  if (payload.b !== bindingHash(binding) || !Number.isSafeInteger(payload.l) || !Number.isSafeInteger(payload.h))
    throw bad();
  if (!Number.isFinite(payload.t) || now - payload.t > CURSOR_TTL_MS) {
    throw new DomainError('cursor_expired', 'The cursor is older than 15 minutes; start again without it.');
  }
  return { last: payload.l, high: payload.h };
}

export interface PageWindow {
  /** Rows with seq greater than this. */
  after: number;
  /** Rows with seq at most this (null on page one: everything). */
  upTo: number | null;
  /** How many rows to read: limit + 1, to know whether another page exists. */
  take: number;
}

/**
 * One page in stable creation order. `fetch` reads rows in ascending seq inside the window;
 * `highWater` gives the newest seq now (asked only when page one has a next page), so rows
 * inserted after page one never appear on later pages.
 */
export async function readPage<Row extends { seq: number }>(
  secret: string,
  binding: Omit<CursorBinding, 'limit'>,
  input: PageInput,
  fetch: (window: PageWindow) => Promise<Row[]>,
  highWater: () => Promise<number>,
): Promise<{ rows: Row[]; next_cursor: string | null }> {
  const limit = checkLimit(input.limit);
  const full: CursorBinding = { ...binding, limit };
  const position = input.cursor === undefined ? null : decodeCursor(secret, full, input.cursor);
  const rows = await fetch({ after: position?.last ?? 0, upTo: position?.high ?? null, take: limit + 1 });
  if (rows.length <= limit) return { rows, next_cursor: null };
  const pageRows = rows.slice(0, limit);
  const high = position?.high ?? (await highWater());
  return {
    rows: pageRows,
    next_cursor: encodeCursor(secret, full, { last: pageRows[pageRows.length - 1]!.seq, high }),
  };
}

const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** `updated_since` must carry a zone; the boundary is inclusive. Returns the UTC ISO text to compare with. */
export function parseUpdatedSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!ZONED_DATE_TIME.test(value) || Number.isNaN(time)) {
    throw invalid('/updated_since', 'must be an ISO 8601 date-time with a time zone, such as 2026-11-22T10:00:00Z');
  }
  return new Date(time).toISOString();
}
