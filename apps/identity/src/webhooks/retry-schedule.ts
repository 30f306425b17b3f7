/** Each wait is varied by up to this fraction either way, so endpoints that failed together are not retried together. */
export const RETRY_JITTER = 0.1;

/**
 * The wait before the next attempt once `attempts` attempts have failed (the first is made at once; `schedule[i]` is
 * the wait after attempt `i + 1`), with jitter; null when the schedule is spent and the delivery has failed.
 */
export function retryDelayMs(attempts: number, schedule: readonly number[], random: () => number = Math.random): number | null {
  const wait = schedule[attempts - 1];
  if (wait === undefined) {
    return null;
  }
  return Math.round(wait * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
