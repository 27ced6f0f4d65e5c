import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/agents/oauth-errors.js';

export type FormBody = Record<string, string | string[]>;
const FORM_LIMIT = 64 * 1024;

/** application/x-www-form-urlencoded, for this plugin only (the REST API stays JSON-only). A repeated name becomes a list. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const out: FormBody = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        const before = out[name];
        out[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
      }
      done(null, out);
    },
  );
}

/** RFC 6749 §3.1: parameters must not repeat. @throws OAuthError invalid_request */
export function singleValues(body: unknown): Record<string, string | undefined> {
  if (typeof body !== 'object' || body === null)
    throw new OAuthError('invalid_request', 'Send the parameters form-encoded (application/x-www-form-urlencoded).');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as FormBody)) {
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} is given more than once.`);
    out[name] = value;
  }
  return out;
}

/**
 * The parameters of a token or revocation request: RFC 6749 §3.2 and RFC 7009 §2.1 take only
 * application/x-www-form-urlencoded, so a JSON body is refused even when it would parse.
 * @throws OAuthError invalid_request
 */
export function formParameters(request: FastifyRequest): Record<string, string | undefined> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new OAuthError('invalid_request', 'Send the parameters form-encoded (application/x-www-form-urlencoded).');
  return singleValues(request.body);
}
