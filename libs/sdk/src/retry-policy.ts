/** Answers that changed nothing on the platform or may be repeated safely: overloaded, unavailable, timed out. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 503, 504];

/**
 * 409 with this code: the first attempt of a write with the same Idempotency-Key is still running on the platform. A
 * retry (after `Retry-After`) gets that attempt's answer once it is kept. By contrast 422 `IDEMPOTENCY_KEY_REUSED`
 * (the key came with another request) is final.
 */
export const IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS';

/**
 * Whether a failed attempt may be sent again: a network error, 429, 503, 504, or 409 `IDEMPOTENCY_IN_PROGRESS`. Any
 * call may be: a read is safe to repeat, and a write carries an Idempotency-Key that makes its repeat a replay.
 */
export function isRetryable(failure: { status: number; code: string }): boolean {
  if (failure.status === 0) {
    return failure.code === 'NETWORK_ERROR';
  }
  return RETRYABLE_STATUSES.includes(failure.status) || (failure.status === 409 && failure.code === IDEMPOTENCY_IN_PROGRESS);
}

export interface RetrySettings {
  /** How many times a call is tried again (0: never). */
  retries: number;
  /** The first backoff; each next one doubles. */
  retryDelayMs: number;
  /** No wait is longer: a `Retry-After` beyond it ends the call with the error instead. */
  maxRetryDelayMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = { retries: 2, retryDelayMs: 250, maxRetryDelayMs: 10_000 };

/**
 * How long to wait before retry number `attempt + 1`, or undefined when the platform asks for a longer wait than
 * `maxRetryDelayMs`. Exponential backoff with jitter (half fixed, half random) so that many clients failing at once
 * do not come back at once; a `Retry-After` is a floor, never shortened, with up to one `retryDelayMs` of jitter.
 */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined, settings: RetrySettings, random: () => number = Math.random): number | undefined {
  const backoff = Math.min(settings.maxRetryDelayMs, settings.retryDelayMs * 2 ** attempt);
  const jittered = backoff / 2 + (random() * backoff) / 2;
  if (retryAfterSeconds === undefined) {
    return jittered;
  }
  const floor = retryAfterSeconds * 1000;
  if (floor > settings.maxRetryDelayMs) {
    return undefined;
  }
  return Math.min(settings.maxRetryDelayMs, Math.max(floor + random() * settings.retryDelayMs, jittered));
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return Number(text);
  }
  // An HTTP date names its month; Date.parse alone would read "-1" or "1.5" as years.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
