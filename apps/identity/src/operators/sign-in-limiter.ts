import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

const MAX_FAILURES = 10;
const WINDOW_SECONDS = 60;

/**
 * SPEC §5: more than 10 failed sign-ins a minute per e-mail or per IP → 429, counted in Redis so it holds across
 * replicas. E-mails are stored hashed.
 */
@Injectable()
export class SignInLimiter {
  constructor(
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  private keys(email: string, ip: string): string[] {
    const emailHash = createHash('sha256').update(email).digest('hex');
    return [`${this.config.keyPrefix}:sign-in-failures:email:${emailHash}`, `${this.config.keyPrefix}:sign-in-failures:ip:${ip}`];
  }

  /** Throws 429 `RATE_LIMITED` (with the wait) while either counter is at its limit. */
  async check(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const results = await this.redis
      .multi()
      .mget(...keys)
      .pttl(keys[0])
      .pttl(keys[1])
      .exec()
      .catch(() => {
        throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
      });
    const counts = (results?.[0][1] as (string | null)[] | undefined) ?? [];
    const ttls = [results?.[1][1], results?.[2][1]].map(Number);
    const blocked = counts.map((count, index) => (Number(count ?? 0) >= MAX_FAILURES ? ttls[index] : -1)).filter((ttl) => ttl >= 0);
    if (blocked.length > 0) {
      const retryAfter = Math.max(1, Math.ceil(Math.max(...blocked) / 1000));
      throw new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', retryAfter);
    }
  }

  async failed(email: string, ip: string): Promise<void> {
    const pipeline = this.redis.multi();
    for (const key of this.keys(email, ip)) {
      pipeline.incr(key).expire(key, WINDOW_SECONDS, 'NX');
    }
    await pipeline.exec().catch(() => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
    });
  }
}
