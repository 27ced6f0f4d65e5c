import { Type, type TSchema } from '@sinclair/typebox';
import { ID_MAX, NAME_PATTERN, NOT_BLANK_MESSAGE } from '../../domain/fields.js';

export { Nullable, OneOf, Timestamp } from '../../domain/schemas/types.js';

/** Ids: opaque strings of at most 160 characters (CONTRACT §1). */
export const Id = Type.String({ minLength: 1, maxLength: ID_MAX });
export const IdParams = Type.Object({ id: Id });

/** A name, title or post body (CONTRACT §18): 1 to `max` characters, at least one not white space, stored as sent. */
export function Name(max: number) {
  return Type.String({ minLength: 1, maxLength: max, pattern: NAME_PATTERN, description: NOT_BLANK_MESSAGE });
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'snake_case error code, e.g. validation_failed, not_found, rate_limited' }),
      message: Type.String(),
      details: Type.Optional(
        Type.Array(Type.Unknown(), {
          description:
            'What broke which rule. validation_failed: [{path, message}] (CSV import: [{row, column, message}]). ' +
            'plan_limit_reached: [{limit, value}], limit one of trees, projects_per_tree, tasks_per_tree, ' +
            'attachment_storage_bytes (value the number allowed), sharing, transcription. ' +
            'conflict about an email or a membership: [{path?, message?, reason}], reason one of email_in_use ' +
            '(an account has this email), already_member, already_invited (this email on this tree), ' +
            'own_tree (the address or account is the tree owner).',
        }),
      ),
      request_id: Type.String(),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

export const Ok = Type.Object({ ok: Type.Boolean() });

const errorDescriptions: Record<number, string> = {
  400: 'validation_failed, invalid_json, invalid_signature, invalid_cursor, cursor_expired, account_guard_required, idempotency_key_not_allowed',
  401: 'unauthenticated: missing, unknown, expired or revoked credential',
  403: 'csrf_failed, session_required, insufficient_scope, plan_read_only, plan_limit_reached, forbidden',
  404: 'not_found: unknown, foreign or no longer accessible',
  409: 'account_mismatch, idempotency_conflict, idempotency_in_progress, token_limit_reached, conflict, revert_conflict (details: [{entity, entity_id, change_id}], the later changes)',
  412: 'precondition_failed: If-Match names no current ETag of the record; nothing changed. details: [{current_version}]; the ETag header holds the current tag',
  413: 'payload_too_large, export_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable: the Range lies outside the file',
  429: 'rate_limited (with Retry-After)',
  503: 'speech_unavailable, billing_unavailable, storage_unavailable (the file store cannot be reached; nothing was stored)',
};

/** The error responses a route can give, for validation of the document and fast serialization. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of [...new Set([400, 429, ...statuses])]) {
    out[status] = Type.Ref('Error', { description: errorDescriptions[status] ?? 'error' });
  }
  return out;
}

export const GuardHeaders = {
  'x-service-user': Type.Optional(
    Type.String({ maxLength: ID_MAX, description: 'Account guard: the signed-in user id' }),
  ),
};

/** Idempotency-Key: 8 to 128 characters of a URL-safe set; the guard checks the same pattern when no schema ran. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9:_.-]{8,128}$';

export const WriteHeaders = Type.Object({
  ...GuardHeaders,
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 128,
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description: 'Replay protection for 7 days',
    }),
  ),
  'x-csrf-token': Type.Optional(Type.String({ description: 'Required with the session cookie' })),
});

/** A write of one tree, project or task that If-Match can make conditional (CONTRACT §16.2). */
export const ConditionalWriteHeaders = Type.Object({
  ...WriteHeaders.properties,
  'if-match': Type.Optional(
    Type.String({
      description:
        'Write only if the record is unchanged: one or more ETags (as the record\'s GET or a write answer gave them, e.g. "v…", comma separated) or *. ' +
        'Compared strongly: a weak tag (W/"…") never matches, and a value that is neither * nor a list of entity-tags matches nothing. ' +
        'No match: 412 precondition_failed with details [{current_version}] and the current ETag; nothing changes. ' +
        'Checked after validation, existence (404) and role (403), before conflicts (409) and plan limits.',
    }),
  ),
});

export const ReadHeaders = Type.Object({
  ...GuardHeaders,
  'if-none-match': Type.Optional(Type.String({ description: 'ETag revalidation' })),
});
