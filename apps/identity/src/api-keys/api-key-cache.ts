import { Inject, Injectable } from '@nestjs/common';
import { AppError, BROADCAST, CachedApiKey, ResolvedApiKey, apiKeyCacheKey, broadcastChannel } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import { TransportKeys, cacheContext, signValue } from '@game-wallet/transport';
import Redis from 'ioredis';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

/** A key's state as cached in Redis for the gateways; `null` means "no such key" (unknown or deleted). */
export type CachedKeyState = ResolvedApiKey | null;

/**
 * Seconds a cache entry lives: with the gateways' 15 s in memory, bounds how long a missed update can last (30 s).
 */
const POSITIVE_TTL_SECONDS = 15;
const NEGATIVE_TTL_SECONDS = 15;

/**
 * The shared API-key cache in Redis, written by identity only. A change overwrites the entry and is broadcast to every
 * gateway; a lookup fills an entry only where none exists (SET NX), so a lookup that read the database before a
 * change can never overwrite the change. Each entry is signed with the key of identity's link with the gateways, for
 * its own Redis key: gateways take no entry that someone who can write to Redis, or another app, made or moved.
 */
@Injectable()
export class ApiKeyCache {
  constructor(
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly keys: TransportKeys,
  ) {}

  /** Caches a state read from the database at `readAt`, unless an entry exists: its life counts from the read. */
  async fill(hash: string, state: CachedKeyState, readAt: number): Promise<void> {
    await this.redis.set(...this.entry(hash, state, readAt), 'NX').catch(() => undefined);
  }

  /** Publishes a change; a failure is a 503 (the change itself is saved, and the cache entry expires within a minute). */
  async changed(hash: string, state: CachedKeyState): Promise<void> {
    try {
      await this.redis
        .multi()
        .set(...this.entry(hash, state))
        .publish(broadcastChannel(this.config.keyPrefix, BROADCAST.apiKeys), hash)
        .exec();
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The change is saved but could not be sent to the gateways yet; it takes effect within 30 s, or ask again');
    }
  }

  /**
   * SET arguments of a key's entry: the key, its state as signed JSON, and its lifetime. A state carries the end of
   * that lifetime under the signature, since Redis's own expiry is not signed: a copy written back later is refused.
   */
  private entry(hash: string, state: CachedKeyState, readAt = Date.now()): [string, string, 'EX', number] {
    const key = apiKeyCacheKey(this.config.keyPrefix, hash);
    const ttlSeconds = state === null ? NEGATIVE_TTL_SECONDS : POSITIVE_TTL_SECONDS;
    const cached: CachedApiKey = state === null ? null : { ...state, cachedUntil: readAt + ttlSeconds * 1000 };
    return [key, signValue(this.keys, 'gateway', cacheContext(key), JSON.stringify(cached)), 'EX', ttlSeconds];
  }
}
