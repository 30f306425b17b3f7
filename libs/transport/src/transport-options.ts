import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import Redis, { RedisOptions } from 'ioredis';
import type { RejectionReason, TransportKeys } from './transport-keys';

/** Settings shared by the client and the server side of the transport. */
export interface TransportConnectionOptions {
  /** `redis://host:port[/db]` */
  redisUrl: string;
  /** Prefix of every Redis key the transport uses, so several platforms (or test suites) can share one Redis. */
  keyPrefix?: string;
  /** This app's keys: sign what this side sends and check what it receives; unauthenticated messages are dropped. */
  keys: TransportKeys;
  /** Called for each message dropped for its signature or its sender, for metrics. */
  onRejected?: (reason: RejectionReason) => void;
}

export const DEFAULT_KEY_PREFIX = 'gw';
/** SPEC §8: a request's default deadline. */
export const DEFAULT_DEADLINE_MS = 5000;
/** Streams are capped at about this many entries, so Redis memory stays bounded even when no consumer runs. */
export const DEFAULT_MAX_STREAM_LENGTH = 100_000;

export const streamKey = (prefix: string, service: string): string => `${prefix}:rpc:${service}`;
export const replyChannel = (prefix: string, clientId: string): string => `${prefix}:reply:${clientId}`;
export const heartbeatKey = (prefix: string, service: string, consumer: string): string =>
  `${prefix}:consumer:${service}:${consumer}`;

/** A name unique to this process instance: host, pid and a random suffix (pods restart with the same pid). */
export function instanceName(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * A Redis connection that fails fast: no offline queue (commands fail at once while disconnected) and a 1 s command
 * timeout (a hung Redis cannot hold a request), reconnecting forever in the background.
 */
export function createFailFastRedis(url: string, name: string, overrides: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 1000,
    enableAutoPipelining: true,
    // No CLIENT SETINFO on connect: it needs Redis 7.2 and an ACL rule of its own, for nothing the apps use.
    disableClientInfo: true,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
    ...overrides,
  });
  // Connection errors are reported through status and failed commands; without a listener ioredis prints them itself.
  redis.on('error', () => undefined);
  return redis;
}

/** Resolves once `redis` is ready, or after `timeoutMs` (whichever comes first); never rejects. */
export function waitUntilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}
