/*
 * The last pass over the generated OpenAPI document: what @fastify/swagger cannot say from a
 * route schema. Named request and response bodies become components (so generators name their
 * types), and the response headers the pipeline sets are declared where it sets them.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is walked as plain JSON */
type Json = Record<string, any>;

/** Markers the route transform leaves on an operation for this pass; removed here. */
export const MARK_COUNTED = 'x-tt-rate-limited';
export const MARK_REPLAYABLE = 'x-tt-replayable';
export const MARK_RECORD_ETAG = 'x-tt-record-etag';
export const MARK_CHANGE = 'x-tt-change';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

export const responseHeaders: Json = {
  ETag: {
    description:
      "Strong validator of the record or body for this user (not this credential): send it back as If-None-Match to revalidate a read, or as If-Match to write only if the record is unchanged. A write of a tree, project or task answers with the tag its GET would give right after; a 412 carries the record's current tag",
    schema: { type: 'string' },
  },
  'RateLimit-Limit': integerHeader('Requests allowed per rolling minute for this credential'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'RateLimit-Reset': integerHeader('Seconds until the window frees a request'),
  'Retry-After': { ...integerHeader('Seconds to wait before retrying'), required: true },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Change-Id': {
    description:
      'The change (chg_…) this write made, when it appended history: filter the tree history by it, or undo it with POST /changes/{id}/revert. Absent when the write changed nothing',
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'Bearer challenge; names the missing scope on insufficient_scope',
    schema: { type: 'string' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function* operations(document: Json): Generator<[string, string, Json]> {
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) if (item[method] !== undefined) yield [path, method, item[method]];
  }
}

/** A top-level body schema with a title becomes `#/components/schemas/<title>`; two different ones with one title are a bug. */
function hoist(schemas: Json, media: Json): void {
  const schema = media.schema;
  if (schema === undefined || schema.$ref !== undefined || typeof schema.title !== 'string') return;
  const name = schema.title as string;
  const existing = schemas[name];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
    throw new Error(`OpenAPI: two different schemas are named ${name}`);
  }
  schemas[name] = schema;
  media.schema = { $ref: `#/components/schemas/${name}` };
}

function declareHeaders(method: string, operation: Json): void {
  const counted = operation[MARK_COUNTED] === true;
  const replayable = operation[MARK_REPLAYABLE] === true;
  const recordETag = operation[MARK_RECORD_ETAG] === true;
  const change = operation[MARK_CHANGE] === true;
  delete operation[MARK_CHANGE];
  delete operation[MARK_COUNTED];
  delete operation[MARK_REPLAYABLE];
  delete operation[MARK_RECORD_ETAG];
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const headers: Json = {};
    // Counted before the route runs, so every answer after authentication carries them; a 401 from
    // a route (a wrong password, a content request without credentials) does too.
    if (counted) {
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[name] = ref(name);
    }
    if (status === '429') headers['Retry-After'] = ref('Retry-After');
    if (status === '401' || (status === '403' && counted)) headers['WWW-Authenticate'] = ref('WWW-Authenticate');
    // Reads carry their validator; attachment content sends it with a refused range as well.
    if (method === 'get' && counted && (status.startsWith('2') || status === '304' || status === '416'))
      headers.ETag = ref('ETag');
    // A write of one record answers with its tag; a failed If-Match with the current one.
    if ((recordETag && (status === '200' || status === '201')) || status === '412') headers.ETag = ref('ETag');
    if (change && (status === '200' || status === '201')) headers['Change-Id'] = ref('Change-Id');
    if (replayable && (status === '200' || status === '201'))
      headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
    if (Object.keys(headers).length > 0) response.headers = { ...response.headers, ...headers };
  }
}

export function finishDocument(document: Json): Json {
  const schemas: Json = (document.components.schemas ??= {});
  for (const [, method, operation] of operations(document)) {
    for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) hoist(schemas, media);
    for (const response of Object.values<Json>(operation.responses ?? {})) {
      for (const media of Object.values<Json>(response.content ?? {})) hoist(schemas, media);
    }
    declareHeaders(method, operation);
  }
  document.components.headers = responseHeaders;
  return document;
}
