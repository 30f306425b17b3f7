/** An answer of the console API other than 2xx, in the platform's error shape `{message, code}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** seconds, from `Retry-After` (429) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Asks the operator for a fresh second factor (the step-up dialog): resolves once the platform accepted one, rejects
 * (with {@link STEP_UP_CANCELLED}) when the operator cancels.
 */
export type StepUpHandler = () => Promise<void>;

let stepUpHandler: StepUpHandler | null = null;
/** The step-up being asked for: calls refused together share one dialog. */
let stepUpPending: Promise<void> | null = null;

/** Installs the handler that answers 401 `STEP_UP_REQUIRED` (the step-up provider); returns its removal. */
export function setStepUpHandler(handler: StepUpHandler): () => void {
  stepUpHandler = handler;
  return () => {
    if (stepUpHandler === handler) {
      stepUpHandler = null;
    }
  };
}

function stepUp(handler: StepUpHandler): Promise<void> {
  stepUpPending ??= handler().finally(() => {
    stepUpPending = null;
  });
  return stepUpPending;
}

/** The error of a call whose step-up the operator cancelled. */
export const STEP_UP_CANCELLED = 'STEP_UP_CANCELLED';

export function stepUpCancelled(): ApiError {
  return new ApiError(401, STEP_UP_CANCELLED, 'Not done: this action needs you to confirm it is you, and that was cancelled.');
}

const WRITES: ReadonlySet<Method> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A fresh `Idempotency-Key` header value: a random UUID as a Structured Field String (`"…"`), as the IETF draft writes
 * it. `crypto.randomUUID` exists only in secure contexts; a console served over plain http makes one from random bytes.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') {
    return `"${crypto.randomUUID()}"`;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `"${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}"`;
}

/**
 * One call to the console API on this origin. The session travels in its HttpOnly cookie, so the page itself never
 * holds a token. Errors become {@link ApiError} with the API's own `message`. `headers` adds to the request's own
 * (`If-Match`). A write carries an `Idempotency-Key` of its own. An action refused with 401 `STEP_UP_REQUIRED` asks
 * for a second factor (once for all calls refused together) and is sent again once: its caller sees only the second
 * answer, or the cancellation.
 */
export async function apiRequest<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const withKey = (): Record<string, string> => (WRITES.has(method) ? { 'idempotency-key': newIdempotencyKey(), ...headers } : headers);
  try {
    return await send<T>(method, path, body, withKey());
  } catch (error) {
    const handler = stepUpHandler;
    if (!(error instanceof ApiError && error.code === 'STEP_UP_REQUIRED') || handler === null) {
      throw error;
    }
    await stepUp(handler);
    // A key of its own for the resend (the platform keeps no 401, so the first would do as well).
    return send<T>(method, path, body, withKey());
  }
}

async function send<T>(method: Method, path: string, body: unknown, headers: Record<string, string>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/v1/console${path}`, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The platform could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) {
    return undefined as T;
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data ?? {}) as { message?: unknown; code?: unknown };
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'UNKNOWN_ERROR',
      typeof error.message === 'string' ? error.message : `The request failed (HTTP ${response.status})`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return data as T;
}

/** A query string of the defined values only (`?a=1&b=x`), or '' when there are none. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') {
      params.set(name, String(value));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** 401 answers that leave the session as it was: a wrong password or second factor, a step-up asked for or cancelled. */
const SESSION_KEPT: ReadonlySet<string> = new Set(['INVALID_CREDENTIALS', 'STEP_UP_REQUIRED', STEP_UP_CANCELLED]);

/** Whether an error means the session ended (expired, signed out elsewhere, the operator removed). */
export const isUnauthenticated = (error: unknown): boolean => error instanceof ApiError && error.status === 401 && !SESSION_KEPT.has(error.code);
