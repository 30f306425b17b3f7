import { ERROR_STATUS, ErrorCode, isErrorCode } from './error-codes';

/** An error as it travels between apps: plain data, never a stack. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  status: number;
  /** For 429: seconds until a retry may succeed (the gateway sends it as `Retry-After`). */
  retryAfter?: number;
  /** Structured facts of the error, sent in the body as `details` (403 `POLICY_DENIED`: the rule and the observed value). */
  details?: Record<string, unknown>;
}

/**
 * The one error type features throw: it carries its SPEC code, and its status follows from the code. It is an
 * expected outcome (a 4xx, a 503), never logged with a stack, so none is captured: on a framework stack of dozens of
 * frames that is most of the cost of answering an error.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfter?: number,
    readonly details?: Record<string, unknown>,
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  toPayload(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, message: this.message, status: this.status };
    if (this.retryAfter !== undefined) {
      payload.retryAfter = this.retryAfter;
    }
    if (this.details !== undefined) {
      payload.details = this.details;
    }
    return payload;
  }

  static fromPayload(payload: ErrorPayload): AppError {
    const details = typeof payload.details === 'object' && payload.details !== null && !Array.isArray(payload.details) ? payload.details : undefined;
    return new AppError(payload.code, payload.message, typeof payload.retryAfter === 'number' ? payload.retryAfter : undefined, details);
  }
}

export function isErrorPayload(value: unknown): value is ErrorPayload {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Record<string, unknown>;
  return isErrorCode(candidate.code) && typeof candidate.message === 'string';
}

export const serviceUnavailable = (message = 'A required service is unavailable'): AppError =>
  new AppError('SERVICE_UNAVAILABLE', message);

export const gatewayTimeout = (message = 'The service did not answer in time'): AppError =>
  new AppError('GATEWAY_TIMEOUT', message);

export const internalError = (): AppError => new AppError('INTERNAL_ERROR', 'Internal server error');
