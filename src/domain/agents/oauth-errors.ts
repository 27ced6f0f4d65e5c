/**
 * The error codes of RFC 6749 §4.1.2.1 / §5.2, RFC 7591 §3.2.2, RFC 7009 and RFC 8707 that the
 * OAuth endpoints answer with. They sit outside CONTRACT §1: OAuth clients read `{error,
 * error_description}`, not our error body.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'rate_limited';

/** A protocol failure; the door answers it in RFC 6749 form. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** invalid_client is 401 (RFC 6749 §5.2); everything else 400 unless given (a registration flood is 429). */
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
