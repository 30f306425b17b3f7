import { AppError } from '@game-wallet/contracts';
import Redis from 'ioredis';

export interface RateLimit {
  /** sustained requests per second */
  rate: number;
  /** requests allowed at once from a full bucket */
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the bucket is full again */
  reset: number;
  /** seconds until the next request would be allowed (when refused) */
  retryAfter: number;
}

/**
 * GCRA (a token bucket kept as one timestamp per key) in one Lua call, on Redis's clock, so every gateway replica
 * counts against the same bucket. KEYS[1] bucket; ARGV rate/s, burst. Returns allowed, remaining, reset ms, retry ms.
 */
const GCRA = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local interval = 1000 / tonumber(ARGV[1])
local tolerance = interval * tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - tolerance
if now < allow_at then
  return {0, 0, math.ceil(tat - now), math.ceil(allow_at - now)}
end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil(new_tat - now) + 1000)
return {1, math.floor((tolerance - (new_tat - now)) / interval), math.ceil(new_tat - now), 0}
`;

type GcraRedis = Redis & { gcra(key: string, rate: number, burst: number): Promise<[number, number, number, number]> };

/** Rate limits counted in Redis (SPEC §7). */
export class RateLimiter {
  private readonly redis: GcraRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('gcra', { numberOfKeys: 1, lua: GCRA });
    this.redis = redis as GcraRedis;
  }

  async take(bucket: string, limit: RateLimit): Promise<RateDecision> {
    let result: [number, number, number, number];
    try {
      result = await this.redis.gcra(`${this.prefix}:rate:${bucket}`, limit.rate, limit.burst);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'Rate limiting is unavailable (Redis)');
    }
    const [allowed, remaining, resetMs, retryMs] = result;
    return {
      allowed: allowed === 1,
      limit: limit.burst,
      remaining: Math.max(0, remaining),
      reset: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil(retryMs / 1000)),
    };
  }
}
