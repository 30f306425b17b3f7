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
 * Takes one attempt from every counter (KEYS), or none: when any counter is at ARGV[1], answers its time to live in
 * ms; otherwise counts the attempt on each (its window starting with the first) and answers -2. One script, so
 * attempts racing each other cannot all read "below the limit" and all go on.
 */
const RESERVE = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[1]) then
    return math.max(redis.call('PTTL', key), 1000)
  end
end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[2], 'NX')
end
return -2`;

/** Gives an attempt back (it succeeded, or could not be judged): never below zero, never a counter without a window. */
const RELEASE = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 0`;

type LimiterRedis = Redis & {
  reserveSignIn(emailKey: string, ipKey: string, max: number, windowSeconds: number): Promise<number>;
  releaseSignIn(emailKey: string, ipKey: string): Promise<number>;
};

/**
 * SPEC §5: more than 10 failed sign-ins a minute per e-mail or per IP → 429, counted in Redis so it holds across
 * replicas. Each attempt is counted before its password is checked, in one atomic step, and given back when it
 * succeeds: a parallel burst cannot get more than 10 guesses in. E-mails are stored hashed.
 */
@Injectable()
export class SignInLimiter {
  private readonly redis: LimiterRedis;

  constructor(@Inject(APP_REDIS) redis: Redis, @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig) {
    redis.defineCommand('reserveSignIn', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('releaseSignIn', { numberOfKeys: 2, lua: RELEASE });
    this.redis = redis as LimiterRedis;
  }

  private keys(email: string, ip: string): [string, string] {
    const emailHash = createHash('sha256').update(email).digest('hex');
    return [`${this.config.keyPrefix}:sign-in-failures:email:${emailHash}`, `${this.config.keyPrefix}:sign-in-failures:ip:${ip}`];
  }

  /** Counts an attempt as a failure until {@link release}; throws 429 `RATE_LIMITED` (with the wait) at the limit. */
  async reserve(email: string, ip: string): Promise<void> {
    const ttl = await this.redis.reserveSignIn(...this.keys(email, ip), MAX_FAILURES, WINDOW_SECONDS).catch(() => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
    });
    if (ttl >= 0) {
      throw new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', Math.max(1, Math.ceil(ttl / 1000)));
    }
  }

  /** Gives back an attempt that was not a failure. */
  async release(email: string, ip: string): Promise<void> {
    await this.redis.releaseSignIn(...this.keys(email, ip)).catch(() => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
    });
  }
}
