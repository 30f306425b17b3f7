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
 * GCRA (a token bucket kept as one timestamp per key) on Redis's clock, so every gateway replica draws from the same
 * bucket. Takes up to ARGV[3] tokens at once. KEYS[1] bucket; ARGV rate/s, burst, wanted.
 * Returns granted, remaining after, ms until full, ms until the next token (when none was granted).
 */
const TAKE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local interval = 1000 / tonumber(ARGV[1])
local tolerance = interval * tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local available = math.floor((now + tolerance - tat) / interval)
if available < 1 then
  return {0, 0, math.ceil(tat - now), math.ceil(tat + interval - tolerance - now)}
end
local granted = math.min(tonumber(ARGV[3]), available)
local new_tat = tat + granted * interval
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil(new_tat - now) + 1000)
return {granted, available - granted, math.ceil(new_tat - now), 0}
`;

type TakeRedis = Redis & { rateTake(key: string, rate: number, burst: number, wanted: number): Promise<[number, number, number, number]> };

/** Tokens drawn from Redis and not used within this time are given up (they cannot pile up beyond the burst). */
const LEASE_MS = 1000;

interface Lease {
  tokens: number;
  expires: number;
  remaining: number;
  resetMs: number;
  refill?: Promise<void>;
  refusedUntil: number;
}

/**
 * Rate limits counted in Redis (SPEC §7). A gateway draws tokens from the shared bucket a few at a time (a tenth of
 * the per-second rate, at least one) and spends them locally, so a busy key costs one Redis call per several
 * requests instead of one per request. The shared bucket is never overdrawn, so the limit holds across replicas;
 * tokens a replica drew but did not use within a second are given up.
 */
export class RateLimiter {
  private readonly redis: TakeRedis;
  private readonly leases = new Map<string, Lease>();

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('rateTake', { numberOfKeys: 1, lua: TAKE });
    this.redis = redis as TakeRedis;
    setInterval(() => this.sweep(), 10_000).unref();
  }

  /** A decision from the local lease when it can (synchronously), else after drawing tokens from Redis. */
  take(bucket: string, limit: RateLimit): RateDecision | Promise<RateDecision> {
    const lease = this.leases.get(bucket) ?? this.newLease(bucket);
    return this.fromLease(lease, limit) ?? this.takeAfterRefill(bucket, lease, limit);
  }

  private fromLease(lease: Lease, limit: RateLimit): RateDecision | undefined {
    const now = Date.now();
    if (lease.tokens > 0 && lease.expires > now) {
      lease.tokens -= 1;
      return this.decision(true, limit, lease, 0);
    }
    if (lease.refusedUntil > now) {
      return this.decision(false, limit, lease, lease.refusedUntil - now);
    }
    return undefined;
  }

  /**
   * Waits for tokens: each refill either brings tokens or says when the next one comes (a refusal), so the loop ends;
   * it only goes round again when concurrent requests took the tokens of a refill first.
   */
  private async takeAfterRefill(bucket: string, lease: Lease, limit: RateLimit): Promise<RateDecision> {
    for (;;) {
      lease.refill ??= this.refill(lease, bucket, limit).finally(() => (lease.refill = undefined));
      await lease.refill;
      const decision = this.fromLease(lease, limit);
      if (decision) {
        return decision;
      }
    }
  }

  private newLease(bucket: string): Lease {
    const lease: Lease = { tokens: 0, expires: 0, remaining: 0, resetMs: 0, refusedUntil: 0 };
    this.leases.set(bucket, lease);
    return lease;
  }

  private async refill(lease: Lease, bucket: string, limit: RateLimit): Promise<void> {
    const wanted = Math.max(1, Math.min(limit.burst, Math.ceil(limit.rate / 10)));
    let result: [number, number, number, number];
    try {
      result = await this.redis.rateTake(`${this.prefix}:rate:${bucket}`, limit.rate, limit.burst, wanted);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'Rate limiting is unavailable (Redis)');
    }
    const [granted, remaining, resetMs, retryMs] = result;
    const now = Date.now();
    lease.tokens = granted;
    lease.expires = now + LEASE_MS;
    lease.remaining = remaining;
    lease.resetMs = now + resetMs;
    lease.refusedUntil = granted === 0 ? now + Math.max(1, retryMs) : 0;
  }

  private decision(allowed: boolean, limit: RateLimit, lease: Lease, retryMs: number): RateDecision {
    return {
      allowed,
      limit: limit.burst,
      remaining: Math.max(0, lease.remaining + lease.tokens),
      reset: Math.max(0, Math.ceil((lease.resetMs - Date.now()) / 1000)),
      retryAfter: Math.max(1, Math.ceil(retryMs / 1000)),
    };
  }

  /** Forgets buckets not used for a while (their leases have expired anyway). */
  private sweep(): void {
    const now = Date.now();
    for (const [bucket, lease] of this.leases) {
      if (lease.expires < now && lease.refusedUntil < now && !lease.refill) {
        this.leases.delete(bucket);
      }
    }
  }
}
