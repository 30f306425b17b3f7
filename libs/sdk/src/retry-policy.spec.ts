import { DEFAULT_RETRY_SETTINGS, isRetryable, parseRetryAfter, retryDelayMs } from './retry-policy';

describe(retryDelayMs.name, () => {
  const settings = { retries: 2, retryDelayMs: 100, maxRetryDelayMs: 2000 };

  it('doubles the backoff with each attempt, jittered between half and all of it', () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(attempt, undefined, settings, () => 1))).toEqual([100, 200, 400, 800]);
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(attempt, undefined, settings, () => 0))).toEqual([50, 100, 200, 400]);
  });

  it('never waits longer than maxRetryDelayMs, however many attempts', () => {
    for (let attempt = 0; attempt < 64; attempt += 1) {
      expect(retryDelayMs(attempt, undefined, settings, () => 1)).toBeLessThanOrEqual(2000);
    }
    expect(retryDelayMs(40, undefined, settings, () => 0)).toBe(1000);
  });

  it('waits at least Retry-After, with at most one retryDelayMs of jitter', () => {
    expect(retryDelayMs(0, 1, settings, () => 0)).toBe(1000);
    expect(retryDelayMs(0, 1, settings, () => 1)).toBe(1100);
    expect(retryDelayMs(0, 0, settings, () => 0)).toBe(50);
  });

  it('gives up (undefined) when Retry-After asks for more than maxRetryDelayMs', () => {
    expect(retryDelayMs(0, 3, settings, () => 0)).toBeUndefined();
    expect(retryDelayMs(0, 2, settings, () => 1)).toBe(2000);
  });

  it('defaults to 2 retries from 250 ms, at most 10 s apart', () => {
    expect(DEFAULT_RETRY_SETTINGS).toEqual({ retries: 2, retryDelayMs: 250, maxRetryDelayMs: 10_000 });
  });
});

describe(parseRetryAfter.name, () => {
  const now = Date.parse('2026-11-21T10:00:00.000Z');

  it.each([
    ['delta-seconds', '3', 3],
    ['zero', '0', 0],
    ['an HTTP date', 'Sat, 21 Nov 2026 10:00:05 GMT', 5],
    ['an HTTP date in the past', 'Sat, 21 Nov 2026 09:59:00 GMT', 0],
  ])('reads %s', (_, header, seconds) => {
    expect(parseRetryAfter(header, now)).toBe(seconds);
  });

  it.each([[null], [''], ['soon'], ['-1'], ['1.5']])('ignores %p', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });
});

describe(isRetryable.name, () => {
  it.each([
    [429, 'RATE_LIMITED'],
    [503, 'SERVICE_UNAVAILABLE'],
    [504, 'GATEWAY_TIMEOUT'],
    [503, 'UNEXPECTED_RESPONSE'],
    [409, 'IDEMPOTENCY_IN_PROGRESS'],
    [0, 'NETWORK_ERROR'],
  ])('retries %i %s', (status, code) => {
    expect(isRetryable({ status, code })).toBe(true);
  });

  it.each([
    [422, 'IDEMPOTENCY_KEY_REUSED'],
    [409, 'CONFLICT'],
    [400, 'VALIDATION_FAILED'],
    [401, 'INVALID_API_KEY'],
    [403, 'POLICY_DENIED'],
    [404, 'NOT_FOUND'],
    [500, 'INTERNAL_ERROR'],
    [502, 'UNEXPECTED_RESPONSE'],
    [0, 'TIMEOUT'],
    [0, 'ABORTED'],
  ])('does not retry %i %s', (status, code) => {
    expect(isRetryable({ status, code })).toBe(false);
  });
});
