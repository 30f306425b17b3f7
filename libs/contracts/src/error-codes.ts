/**
 * Machine-readable error codes of the public API (SPEC §2) and the HTTP status each one answers with.
 * A service throws an {@link AppError} carrying one of these; the transport carries `{code, message, status}` as data
 * and the gateway's exception filter turns it into the SPEC body `{message, code}`.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  /** a request HTTP itself refuses: a control character in a header, a bad percent-encoding, no `Host`… */
  BAD_REQUEST: 400,
  INVALID_DURATION: 400,
  INVALID_QUERY: 400,
  MALFORMED_JSON: 400,
  MESSAGE_IS_TRANSACTION: 400,
  NOT_A_SIGNER: 400,
  SENDER_MISMATCH: 400,
  UNAUTHENTICATED: 401,
  INVALID_API_KEY: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_REVOKED: 401,
  INVALID_CREDENTIALS: 401,
  /** an API key that requires signed requests (RFC 9421) used without a signature on a route its setting names */
  SIGNATURE_REQUIRED: 401,
  /** a request signature that does not hold: the message says which part failed */
  INVALID_SIGNATURE: 401,
  /** a console action that needs a second factor given within the last 5 minutes (SPEC §11) */
  STEP_UP_REQUIRED: 401,
  API_KEY_INACTIVE: 403,
  FORBIDDEN: 403,
  API_KEY_REQUIRED: 403,
  POLICY_DENIED: 403,
  NOT_FOUND: 404,
  PROFILE_NOT_FOUND: 404,
  WALLET_NOT_FOUND: 404,
  GAME_NOT_FOUND: 404,
  PLAYER_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  SIGNING_KEY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  /** an `If-Match` that names a version other than the current one (a signing policy changed since it was read) */
  PRECONDITION_FAILED: 412,
  /** an `Idempotency-Key` whose first request is still running (with `Retry-After`) */
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** an API key that already has as many request-signing keys as it may (3) */
  SIGNING_KEY_LIMIT: 409,
  /** a request-signing key already registered for the API key */
  SIGNING_KEY_EXISTS: 409,
  /** requiring signed requests of an API key without a signing key, or removing the last one while they are required */
  SIGNING_KEY_REQUIRED: 409,
  /** a game that already has as many webhook endpoints as it may (20) */
  WEBHOOK_ENDPOINT_LIMIT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** an `Idempotency-Key` used before with another request body */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** a path segment (an id) longer than 100 characters */
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** an `Expect` header other than `100-continue` */
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
  /** the request line and headers together past 16 KiB */
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  KEY_INTEGRITY_FAILED: 500,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}
