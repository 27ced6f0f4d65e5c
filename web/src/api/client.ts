import { t } from '../i18n';

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

/** The words shown for a failure: by code first, then by status, never a bare code. */
export function describeError(status: number, code: string, retryAfter: number | null): string {
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
      return t('errors.conflict');
    case 'plan_limit_reached':
      return t('errors.planLimit');
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
  return new ApiError(status, name, describeError(status, name, retryAfter), retryAfter, details);
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

/**
 * One JSON request to /api/v1 with the cookie session. Writes carry the CSRF header and are never
 * retried: a lost answer may still have been applied, so the person decides whether to try again.
 */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: { quiet401?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') Object.assign(headers, csrfHeader());
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'network', describeError(0, 'network', null));
  }
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
  return parsed as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
