/** The error codes of CONTRACT §1, each with its one HTTP status. */
export const errorStatus = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_signature: 400,
  invalid_cursor: 400,
  cursor_expired: 400,
  idempotency_key_not_allowed: 400,
  account_guard_required: 400,
  unauthenticated: 401,
  csrf_failed: 403,
  session_required: 403,
  insufficient_scope: 403,
  plan_read_only: 403,
  plan_limit_reached: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  account_mismatch: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  token_limit_reached: 409,
  conflict: 409,
  revert_conflict: 409,
  precondition_failed: 412,
  export_too_large: 413,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limited: 429,
  internal_error: 500,
  speech_unavailable: 503,
  billing_unavailable: 503,
  storage_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ValidationDetail {
  path: string;
  message: string;
}

/** Every failure below a door is one of these; each door maps it once (HTTP status, MCP tool error, CLI exit). */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown[] | undefined;

  constructor(code: ErrorCode, message: string, details?: unknown[]) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export function notFound(what = 'resource'): DomainError {
  return new DomainError('not_found', `The ${what} does not exist or is not accessible.`);
}

export function invalid(path: string, message: string): DomainError {
  return new DomainError('validation_failed', `${path} ${message}`, [{ path, message }]);
}
