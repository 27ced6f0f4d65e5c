import { t } from '../i18n';
import { formatBytes, formatCount } from '../i18n/format';
import type { Page } from './types';

/** An API failure with a sentence a person understands; `code` stays for the app's own decisions. */
export class ApiError extends Error {
  override name = 'ApiError'; // set explicitly: minification renames classes
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null = null,
    /** The error's `details` as the API sent them (bad CSV rows, the plan limit that was hit). */
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}

/** Messages of plan limits, which the error note follows with a link to Billing. */
const planLimitMessages = new Set<string>();
export function needsBilling(message: string): boolean {
  return planLimitMessages.has(message);
}

const PLAN_LIMITS = [
  'trees',
  'projects_per_tree',
  'tasks_per_tree',
  'attachment_storage_bytes',
  'sharing',
  'transcription',
] as const;

/** The rule a plan limit broke, with its number (details `[{limit, value}]`, CONTRACT §1). */
function planLimitText(details: readonly unknown[]): string {
  const detail = details[0] as { limit?: unknown; value?: unknown } | undefined;
  const limit = PLAN_LIMITS.find((x) => x === detail?.limit);
  const value = typeof detail?.value === 'number' ? detail.value : null;
  let text: string;
  if (limit === undefined || (value === null && limit !== 'sharing' && limit !== 'transcription'))
    text = t('errors.planLimit');
  else
    text = t(`errors.planLimits.${limit}`, {
      value: limit === 'attachment_storage_bytes' ? formatBytes(value ?? 0) : formatCount(value ?? 0),
    });
  planLimitMessages.add(text);
  return text;
}

/** Which rule a 409 broke, from its details' `reason` (documented in the OpenAPI). */
function conflictText(details: readonly unknown[]): string {
  const detail = details[0] as { reason?: unknown; projects?: unknown } | undefined;
  switch (detail?.reason) {
    case 'email_in_use':
      return t('errors.emailInUse');
    case 'already_invited':
      return t('errors.alreadyInvited');
    case 'already_member':
      return t('errors.alreadyMember');
    case 'own_tree':
      return t('errors.ownTree');
  }
  if (typeof detail?.projects === 'number') return t('errors.projectNotEmpty');
  return t('errors.conflict');
}

/** The words shown for a failure: by code (and the rule its details name), then by status, never a bare code. */
export function describeError(
  status: number,
  code: string,
  retryAfter: number | null,
  details: readonly unknown[] = [],
): string {
  switch (code) {
    case 'network':
      return t('errors.network');
    case 'unauthenticated':
      return t('errors.unauthenticated');
    case 'csrf_failed':
      return t('errors.csrf');
    case 'rate_limited':
      return retryAfter !== null ? t('errors.rateLimitedIn', { seconds: retryAfter }) : t('errors.rateLimited');
    case 'payload_too_large':
      return t('errors.tooLarge');
    case 'validation_failed':
      return t('errors.validation');
    case 'conflict':
      return conflictText(details);
    case 'plan_limit_reached':
      return planLimitText(details);
    case 'plan_read_only':
      return t('errors.planReadOnly');
    case 'token_limit_reached':
      return t('errors.tokenLimit');
    case 'speech_unavailable':
      return t('errors.speechUnavailable');
    case 'billing_unavailable':
      return t('errors.billingUnavailable');
    case 'unsupported_media_type':
      return t('errors.unsupportedType');
    case 'forbidden':
      return t('errors.forbidden');
    case 'not_found':
      return t('errors.notFound');
    case 'precondition_failed':
      return t('errors.changedMeanwhile');
    case 'revert_conflict':
      return t('errors.revertConflict');
  }
  if (status >= 500) return t('errors.server');
  return t('errors.unknown', { status });
}

export function toApiError(status: number, body: unknown, retryAfterHeader: string | null): ApiError {
  const error = (body as { error?: { code?: unknown; details?: unknown } } | null)?.error;
  const code = error?.code;
  const details = Array.isArray(error?.details) ? error.details : [];
  const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : null;
  const name = typeof code === 'string' ? code : `http_${status}`;
  return new ApiError(status, name, describeError(status, name, retryAfter, details), retryAfter, details);
}

let csrf: string | null = null;
let onUnauthorized: () => void = () => undefined;

/** The per-session CSRF value; set from /auth/me, login, register, logout and reset. Memory only. */
export function setCsrf(value: string | null | undefined): void {
  csrf = value ?? null;
}
export function csrfHeader(): Record<string, string> {
  return csrf !== null ? { 'X-CSRF-Token': csrf } : {};
}

/** One place decides what a dead session means (the app routes to sign in). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}
export function reportUnauthorized(): void {
  onUnauthorized();
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  quiet401?: boolean;
  /** The record's ETag as the app last got it: the write is refused (412) when the record changed since. */
  ifMatch?: string;
  /** A read's ETag as the app last got it: 304 (answered as a null body) when nothing changed since. */
  ifNoneMatch?: string;
}

/** A JSON answer with the record's ETag, which a conditional write sends back as If-Match (CONTRACT §16.2). */
export interface Tagged<T> {
  body: T;
  etag: string | null;
}

/** One JSON request to /api/v1 with the cookie session; see api(). */
export async function apiTagged<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Tagged<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') Object.assign(headers, csrfHeader());
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.ifMatch !== undefined) headers['If-Match'] = options.ifMatch;
  if (options.ifNoneMatch !== undefined) headers['If-None-Match'] = options.ifNoneMatch;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body !== undefined ? JSON.stringify(body) : undefined,
      // A revalidation is answered by the server, never by the browser's cache.
      ...(options.ifNoneMatch !== undefined ? { cache: 'no-store' as const } : {}),
    });
  } catch {
    throw new ApiError(0, 'network', describeError(0, 'network', null));
  }
  if (response.status === 304 && options.ifNoneMatch !== undefined)
    return { body: null as T, etag: response.headers.get('ETag') ?? options.ifNoneMatch };
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const error = toApiError(response.status, parsed, response.headers.get('Retry-After'));
    if (response.status === 401 && !options.quiet401) reportUnauthorized();
    throw error;
  }
  return { body: parsed as T, etag: response.headers.get('ETag') };
}

/**
 * One JSON request to /api/v1 with the cookie session. Writes carry the CSRF header and are never
 * retried: a lost answer may still have been applied, so the person decides whether to try again.
 */
export async function api<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  return (await apiTagged<T>(method, path, body, options)).body;
}

/** The record changed since the app read it (412, CONTRACT §16.2): the app shows what changed instead. */
export function isChangedMeanwhile(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'precondition_failed';
}

export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Every page of a list: the app shows whole lists (a Grove account may hold 250 trees). */
export async function allPages<T>(
  path: string,
  params: Record<string, string | number | undefined> = {},
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<Page<T>>('GET', `${path}${query({ ...params, limit: 200, cursor })}`);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}
