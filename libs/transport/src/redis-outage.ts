import { Logger } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';

/**
 * What ioredis and Redis say when Redis cannot serve now, not that the command is wrong: a primary demoted by a
 * failover (READONLY; the connection is then dropped and the next one finds the new primary), a node still loading
 * its data, a replica cut off from its primary, no connection (offline queue off), a dropped one, a command timed out,
 * and Sentinels that cannot be reached or name no primary yet.
 */
const UNAVAILABLE_REPLIES = /^(READONLY|LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/;
const UNAVAILABLE_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Command timed out',
  'All sentinels are unreachable',
  'Reached the max retries per request limit',
  'Command aborted due to connection close',
];

/** True when `error` says Redis is unavailable (see above). */
export function isRedisUnavailable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : undefined;
  return message !== undefined && (UNAVAILABLE_REPLIES.test(message) || UNAVAILABLE_MESSAGES.some((known) => message.includes(known)));
}

/**
 * A failure of Redis that reached the exception filter (a command outside the paths that already answer 503 for it)
 * becomes 503 `SERVICE_UNAVAILABLE` with `Retry-After: 1`, never a 500. Logged as a warning at most every 5 s, without
 * the driver's text.
 */
export class RedisOutage {
  private readonly logger = new Logger('Redis');
  private lastWarning = 0;

  readonly translate = (error: unknown): AppError | undefined => {
    if (error instanceof AppError || !isRedisUnavailable(error)) {
      return undefined;
    }
    const now = Date.now();
    if (now - this.lastWarning >= 5000) {
      this.lastWarning = now;
      this.logger.warn(`Redis is unavailable (${(error as Error).message.split(/[\s:]/)[0]}): answering 503`);
    }
    return new AppError('SERVICE_UNAVAILABLE', 'Redis is unavailable; try again shortly', 1);
  };
}
