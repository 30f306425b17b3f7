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
 * Password checks at once for a locked e-mail (from clean addresses): a burst from many addresses cannot queue up
 * scrypt hashes (32 MiB each, one at a time) behind a locked e-mail; one more waits for them. Kept at most this long
 * in case a check never says it is done.
 */
const LOCKED_EMAIL_CHECKS_IN_FLIGHT = 2;
const IN_FLIGHT_TTL_SECONDS = 30;

/**
 * Takes one sign-in attempt (KEYS: the e-mail's counter, the address's, the e-mail's checks in flight while locked),
 * or none. Answers `{outcome, ttl}`:
 * - 0: counted on both (neither was at ARGV[1]);
 * - 1: the e-mail's counter is at the limit but the address has no failure: counted on the address only, and the
 *   password is still checked, at most ARGV[3] at once (`ttl`: the e-mail's time to live in ms);
 * - 2: refused (`ttl`: the wait in ms).
 * One script, so attempts racing each other cannot all read "below the limit" and all go on.
 */
const RESERVE_SIGN_IN = `
local max = tonumber(ARGV[1])
local email = tonumber(redis.call('GET', KEYS[1]) or '0')
local address = tonumber(redis.call('GET', KEYS[2]) or '0')
if address >= max then
  return {2, math.max(redis.call('PTTL', KEYS[2]), 1000)}
end
if email >= max then
  if address > 0 or tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[3]) then
    return {2, math.max(redis.call('PTTL', KEYS[1]), 1000)}
  end
  redis.call('INCR', KEYS[2])
  redis.call('EXPIRE', KEYS[2], ARGV[2], 'NX')
  redis.call('INCR', KEYS[3])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
  return {1, math.max(redis.call('PTTL', KEYS[1]), 1000)}
end
for index = 1, 2 do
  redis.call('INCR', KEYS[index])
  redis.call('EXPIRE', KEYS[index], ARGV[2], 'NX')
end
return {0, 0}`;

/**
 * Takes one attempt from every counter (KEYS), each with its own limit and window (ARGV: limit, seconds, …), or none:
 * answers the time to live (ms) of a counter at its limit, else counts the attempt on each and answers -2.
 */
const RESERVE_EACH = `
for index, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[index * 2 - 1]) then
    return math.max(redis.call('PTTL', key), 1000)
  end
end
for index, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[index * 2], 'NX')
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
  reserveSignIn(emailKey: string, ipKey: string, inFlightKey: string, max: number, windowSeconds: number, maxInFlight: number, inFlightTtl: number): Promise<[number, number]>;
  reserveEach(numberOfKeys: number, ...keysThenLimits: (string | number)[]): Promise<number>;
  releaseAttempt(numberOfKeys: number, ...keys: string[]): Promise<number>;
};

/** How a sign-in attempt was counted: against the e-mail and the address, or (the e-mail at its limit) the address only. */
export type SignInCount = 'email-and-address' | 'address-only';

/** A counter of failed second factors beside the address's: one session's step-ups, say. */
export interface FailureCounter {
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * SPEC §5: more than 10 failed sign-ins a minute per e-mail or per client address → 429, counted in Redis so it holds
 * across replicas. Each attempt is counted before its password is checked, in one atomic step, and given back when it
 * succeeds: a parallel burst cannot get more than 10 guesses in. E-mails are stored hashed.
 *
 * The per-e-mail counter must not lock the owner out (anyone who knows the e-mail can fill it): when it is at its
 * limit but the client address has no failure at all, the password is still checked, counted against that address
 * only. The sign-in then goes on only to the second factor (an operator without one stays refused), and second-factor
 * failures count per challenge and per address, never per e-mail. See docs/console-sign-in.md.
 */
@Injectable()
export class SignInLimiter {
  private readonly redis: LimiterRedis;

  constructor(@Inject(APP_REDIS) redis: Redis, @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig) {
    redis.defineCommand('reserveSignIn', { numberOfKeys: 3, lua: RESERVE_SIGN_IN });
    redis.defineCommand('reserveEach', { lua: RESERVE_EACH });
    redis.defineCommand('releaseAttempt', { lua: RELEASE });
    this.redis = redis as LimiterRedis;
  }

  private emailKey(email: string): string {
    return `${this.config.keyPrefix}:sign-in-failures:email:${createHash('sha256').update(email).digest('hex')}`;
  }

  private inFlightKey(email: string): string {
    return `${this.emailKey(email)}:checks-in-flight`;
  }

  private addressKey(ip: string): string {
    return `${this.config.keyPrefix}:sign-in-failures:ip:${ip}`;
  }

  /**
   * Counts a sign-in attempt as a failure until {@link release}; throws 429 `RATE_LIMITED` (with the wait) at the
   * limit. `address-only`: the e-mail is at its limit and this address clean (see the class).
   */
  async reserve(email: string, ip: string): Promise<{ counted: SignInCount; retryAfter: number }> {
    const [outcome, ttl] = await this.redis
      .reserveSignIn(this.emailKey(email), this.addressKey(ip), this.inFlightKey(email), MAX_FAILURES, WINDOW_SECONDS, LOCKED_EMAIL_CHECKS_IN_FLIGHT, IN_FLIGHT_TTL_SECONDS)
      .catch(unavailable);
    if (outcome === 2) {
      throw limited(ttl);
    }
    return { counted: outcome === 1 ? 'address-only' : 'email-and-address', retryAfter: seconds(ttl) };
  }

  /** Says that the check of an attempt {@link reserve} took is over (right or wrong): call it once, whatever came of it. */
  async done(email: string, counted: SignInCount): Promise<void> {
    if (counted === 'address-only') {
      await this.redis.releaseAttempt(1, this.inFlightKey(email)).catch(unavailable);
    }
  }

  /** Gives back an attempt that was not a failure. */
  async release(email: string, ip: string, counted: SignInCount = 'email-and-address'): Promise<void> {
    const keys = counted === 'address-only' ? [this.addressKey(ip)] : [this.emailKey(email), this.addressKey(ip)];
    await this.redis.releaseAttempt(keys.length, ...keys).catch(unavailable);
  }

  /**
   * Counts a second-factor attempt as a failure until {@link releaseSecondFactor}: against the client address (the
   * same counter as failed passwords) and `also` — never against the e-mail. 429 at any limit.
   */
  async reserveSecondFactor(ip: string, also?: FailureCounter): Promise<void> {
    const counters = [{ key: this.addressKey(ip), max: MAX_FAILURES, windowSeconds: WINDOW_SECONDS }, ...(also ? [also] : [])];
    const ttl = await this.redis
      .reserveEach(counters.length, ...counters.map((counter) => counter.key), ...counters.flatMap((counter) => [counter.max, counter.windowSeconds]))
      .catch(unavailable);
    if (ttl >= 0) {
      throw limited(ttl);
    }
  }

  async releaseSecondFactor(ip: string, also?: FailureCounter): Promise<void> {
    const keys = [this.addressKey(ip), ...(also ? [also.key] : [])];
    await this.redis.releaseAttempt(keys.length, ...keys).catch(unavailable);
  }

  /** A counter of its own for the step-ups of one session (5 failures in 5 minutes). */
  stepUpCounter(sessionId: string): FailureCounter {
    return { key: `${this.config.keyPrefix}:step-up-failures:${sessionId}`, max: 5, windowSeconds: 300 };
  }
}

function seconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

function limited(ttlMs: number): AppError {
  return new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', seconds(ttlMs));
}

function unavailable(): never {
  throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
}
