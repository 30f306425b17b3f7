import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import Redis from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

/** How long a sign-in waits for its second factor. */
export const SIGN_IN_CHALLENGE_TTL_SECONDS = 300;
/** Second factors one sign-in challenge takes (wrong ones included); past them, sign in again. */
const MAX_ATTEMPTS = 5;

/**
 * Counts one attempt on a challenge (KEYS[1]) and answers its operator, or false when the challenge is unknown,
 * expired or has had its attempts (then it is deleted).
 */
const ATTEMPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
if redis.call('HINCRBY', KEYS[1], 'attempts', 1) > tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  return false
end
return redis.call('HGET', KEYS[1], 'operator')`;

type ChallengeRedis = Redis & { attemptSignInChallenge(key: string, max: number): Promise<string | null> };

/** A sign-in challenge as its check sees it: the operator, and the hash the challenge is kept (and bound) under. */
export interface PendingSignIn {
  operatorId: string;
  challengeHash: string;
}

/**
 * Step 1 of a sign-in with a second factor: a random challenge (256 bits) the client sends back with the factor. Redis
 * keeps only its SHA-256 and the operator, for 5 minutes; it takes at most 5 factors and signs in once.
 */
@Injectable()
export class SignInChallenges {
  private readonly redis: ChallengeRedis;

  constructor(@Inject(APP_REDIS) redis: Redis, @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig) {
    redis.defineCommand('attemptSignInChallenge', { numberOfKeys: 1, lua: ATTEMPT });
    this.redis = redis as ChallengeRedis;
  }

  async issue(operatorId: string): Promise<{ challenge: string; challengeHash: string; expiresAt: Date }> {
    const challenge = randomBytes(32).toString('base64url');
    const challengeHash = hashOf(challenge);
    const key = this.key(challengeHash);
    await this.redis
      .multi()
      .hset(key, 'operator', operatorId, 'attempts', '0')
      .expire(key, SIGN_IN_CHALLENGE_TTL_SECONDS)
      .exec()
      .catch(unavailable);
    return { challenge, challengeHash, expiresAt: new Date(Date.now() + SIGN_IN_CHALLENGE_TTL_SECONDS * 1000) };
  }

  /** Counts an attempt on the challenge: its operator, or null when it is unknown, expired, used or out of attempts. */
  async attempt(challenge: string): Promise<PendingSignIn | null> {
    const challengeHash = hashOf(challenge);
    const operatorId = await this.redis.attemptSignInChallenge(this.key(challengeHash), MAX_ATTEMPTS).catch(unavailable);
    return typeof operatorId === 'string' ? { operatorId, challengeHash } : null;
  }

  /** Ends the challenge once its second factor was right: true for the one request that ended it. */
  async consume(pending: PendingSignIn): Promise<boolean> {
    return (await this.redis.del(this.key(pending.challengeHash)).catch(unavailable)) === 1;
  }

  private key(challengeHash: string): string {
    return `${this.config.keyPrefix}:sign-in-challenge:${challengeHash}`;
  }
}

function hashOf(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}

function unavailable(): never {
  throw new AppError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable right now (Redis)');
}
