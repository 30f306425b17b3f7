import { Logger } from '@nestjs/common';
import { BROADCAST, PATTERNS, ResolvedApiKey, apiKeyCacheKey, broadcastChannel, freshCachedApiKey } from '@game-wallet/contracts';
import { BroadcastSubscriber, RedisStreamsClient, RejectionLog, TransportKeys, cacheContext, openValue } from '@game-wallet/transport';
import Redis from 'ioredis';
import { hash as digest } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const KEY_FORMAT = /^gk_[0-9A-Za-z]{40}$/;
/**
 * A cached state lives this long in memory at most; changes arrive much sooner by broadcast. With identity's shared
 * Redis entries living as long, a change whose broadcast was missed takes effect within 30 s.
 */
const MEMORY_TTL_MS = 15_000;
/** Last use of keys is sent to identity this often (SPEC §3: within 60 s, no database write per request). */
const USAGE_FLUSH_MS = 20_000;

/**
 * Resolves presented API keys: memory, then the shared Redis cache, then identity. A change broadcast by identity
 * evicts the key here at once; after a broadcast reconnect everything is evicted (messages may have been missed).
 * Results of a lookup that overlapped an eviction are not cached, so a slow lookup cannot bring a stale state back.
 * A shared entry counts only when identity signed it for its own Redis key and its signed time has not passed; any
 * other is a miss (identity answers).
 */
export class ApiKeyResolver {
  private readonly logger = new Logger(ApiKeyResolver.name);
  private readonly memory = new LRUCache<string, { state: ResolvedApiKey | null }>({ max: 100_000, ttl: MEMORY_TTL_MS });
  private readonly inFlight = new Map<string, Promise<ResolvedApiKey | null>>();
  /** last use per key, and per key and signing key (`<keyId> <signingKeyId>`) */
  private readonly lastUse = new Map<string, number>();
  /**
   * The last well-formed key each open connection presented, with its hash: a game server sends the same key on every
   * request of a keep-alive connection, and SHA-256 is most of this resolver's work. Only the client that sent a key
   * can compare against it, and the entry goes with the connection.
   */
  private readonly lastKeyOn = new WeakMap<object, { secret: string; hash: string }>();
  private evictions = 0;
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly transport: RedisStreamsClient,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly keys: TransportKeys,
    private readonly rejections: RejectionLog,
  ) {}

  async start(subscriber: BroadcastSubscriber): Promise<void> {
    await subscriber.on(broadcastChannel(this.prefix, BROADCAST.apiKeys), (hash) => {
      this.evictions += 1;
      this.memory.delete(hash);
    });
    subscriber.onResync(() => {
      this.evictions += 1;
      this.memory.clear();
    });
    this.flushTimer = setInterval(() => void this.flushUsage(), USAGE_FLUSH_MS);
    this.flushTimer.unref();
  }

  /**
   * The key's state, or null for a malformed, unknown or deleted key. Answers synchronously from memory (the common
   * case), with a promise only when it has to look further.
   */
  resolve(secret: string, connection?: object): ResolvedApiKey | null | Promise<ResolvedApiKey | null> {
    const hash = this.hashOf(secret, connection);
    if (hash === undefined) {
      return null;
    }
    const cached = this.memory.get(hash);
    if (cached !== undefined) {
      return cached.state;
    }
    let lookup = this.inFlight.get(hash);
    if (!lookup) {
      lookup = this.lookup(hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, lookup);
    }
    return lookup;
  }

  /** SHA-256 of a well-formed key (undefined for a malformed one), reused while a connection repeats its key. */
  private hashOf(secret: string, connection?: object): string | undefined {
    const last = connection && this.lastKeyOn.get(connection);
    if (last && last.secret === secret) {
      return last.hash;
    }
    if (!KEY_FORMAT.test(secret)) {
      return undefined;
    }
    const hash = digest('sha256', secret, 'hex');
    if (connection) {
      this.lastKeyOn.set(connection, { secret, hash });
    }
    return hash;
  }

  /** Notes a use of the key (and of the signing key that signed the request); sent to identity in the next batch. */
  recordUse(keyId: string, signingKeyId?: string): void {
    const now = Date.now();
    this.lastUse.set(keyId, now);
    if (signingKeyId !== undefined) {
      this.lastUse.set(`${keyId} ${signingKeyId}`, now);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushUsage();
  }

  private async lookup(hash: string): Promise<ResolvedApiKey | null> {
    const evictionsBefore = this.evictions;
    // An unreadable or unsigned shared entry is a miss: identity answers (or the transport says 503 if Redis is gone).
    const key = apiKeyCacheKey(this.prefix, hash);
    const shared = await this.redis.get(key).catch(() => null);
    const opened = shared === null ? undefined : openValue(this.keys, 'identity', cacheContext(key), shared);
    if (opened?.ok === false) {
      this.rejections.rejected(opened.reason);
    }
    // A signed entry past its time (written back by someone who can write to Redis) is a miss too, and one taken is
    // kept here no longer than its time.
    const cached = opened?.ok ? freshCachedApiKey(opened.text, Date.now()) : undefined;
    const state = cached !== undefined ? cached.state : await this.transport.call(PATTERNS.identity.resolveApiKey, { payload: { hash }, principal: { kind: 'system' } });
    if (this.evictions === evictionsBefore) {
      this.memory.set(hash, { state }, { ttl: Math.max(1, Math.min(MEMORY_TTL_MS, cached?.freshForMs ?? MEMORY_TTL_MS)) });
    }
    return state;
  }

  private async flushUsage(): Promise<void> {
    if (this.lastUse.size === 0) {
      return;
    }
    const uses = [...this.lastUse].map(([entry, at]) => {
      const [keyId, signingKeyId] = entry.split(' ');
      return signingKeyId === undefined ? { keyId, at } : { keyId, at, signingKeyId };
    });
    this.lastUse.clear();
    try {
      await this.transport.call(PATTERNS.identity.touchApiKeys, { payload: { uses }, principal: { kind: 'system' } });
    } catch (error) {
      for (const use of uses) {
        const entry = 'signingKeyId' in use ? `${use.keyId} ${use.signingKeyId}` : use.keyId;
        this.lastUse.set(entry, Math.max(use.at, this.lastUse.get(entry) ?? 0));
      }
      this.logger.warn(`Could not record the last use of ${uses.length} API key(s); will retry: ${String(error)}`);
    }
  }
}
