import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A transport key prefix no other suite uses. */
export function uniquePrefix(label: string): string {
  return `gwt-${label}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under `prefix` (a suite's leftovers). */
export async function deleteKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // A server that is gone (a primary killed by a failover drill) rejects connect(); ioredis would also print it.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
