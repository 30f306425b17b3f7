import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { RedisTarget } from '@game-wallet/config';
import Redis, { RedisOptions } from 'ioredis';
import type { RejectionReason, TransportKeys } from './transport-keys';

/** Settings shared by the client and the server side of the transport. */
export interface TransportConnectionOptions {
  /** `redis://host:port[/db]`, or a primary found through Sentinels ({@link RedisTarget}). */
  redisUrl: RedisTarget;
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
 * timeout (a hung Redis cannot hold a request), reconnecting forever in the background. `target` is one server, or a
 * master set behind Sentinels: then each (re)connection asks the Sentinels for the primary, so a failover is followed
 * without a restart.
 */
export function createFailFastRedis(target: RedisTarget, name: string, overrides: RedisOptions = {}): Redis {
  const options: RedisOptions = {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 1000,
    enableAutoPipelining: true,
    // No CLIENT SETINFO on connect: it needs Redis 7.2 and an ACL rule of its own, for nothing the apps use.
    disableClientInfo: true,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
    // A primary demoted to a replica (a failover while it stayed up) refuses writes with READONLY: drop the
    // connection so the next one goes to the new primary. The command fails (503 for its caller), never hangs.
    reconnectOnError: (error) => (/^READONLY\b/.test(error.message) ? 1 : false),
    ...(typeof target === 'string' ? {} : sentinelOptions(target)),
    ...overrides,
  };
  const redis = typeof target === 'string' ? new Redis(target, options) : new Redis(target.url, options);
  // Connection errors are reported through status and failed commands; without a listener ioredis prints them itself.
  redis.on('error', () => undefined);
  return redis;
}

/** ioredis's Sentinel settings for a target: the primary of `name`, found again on every reconnect. */
function sentinelOptions(target: Exclude<RedisTarget, string>): RedisOptions {
  return {
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.name,
    role: 'master',
    sentinelUsername: target.sentinelUsername,
    sentinelPassword: target.sentinelPassword,
    sentinelTLS: target.sentinelTls ? {} : undefined,
    // The data nodes' TLS follows the URL (`rediss:` sets `tls`); without this ioredis would ignore it behind Sentinels.
    enableTLSForSentinelMode: target.url.startsWith('rediss:'),
    sentinelCommandTimeout: 1000,
    sentinelRetryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    sentinelReconnectStrategy: (attempt) => Math.min(100 * attempt, 1000),
    // No failover detector: ioredis's (+switch-master from the Sentinels) disconnects the connector, and when that
    // lands while a reconnection is asking the Sentinels, the connection ends for good ("Connection is closed", status
    // `end`): the likely cause of a fault-suite run where the gateway never served again after the failover. A dead
    // primary drops the connections anyway, and a demoted one that stays up answers the first write with READONLY
    // (reconnectOnError above).
    failoverDetector: false,
  };
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

/**
 * Which Redis server a connection is on: the start of its `run_id` (INFO server), learnt at each (re)connection. A
 * promoted replica, or a restarted server, has another one, so the transport can tell the requests written to the
 * primary it reads from from those a previous primary took in (see `RedisStreamsServer`).
 */
export class ServerIdentity {
  private current?: string;
  private learning?: Promise<string | undefined>;
  private connection = 0;

  constructor(private readonly redis: Redis) {
    redis.on('ready', () => {
      this.connection += 1;
      this.current = undefined;
      void this.learn();
    });
    redis.on('close', () => {
      this.connection += 1;
      this.current = undefined;
    });
  }

  /** The server's id; undefined until learnt on this connection ('' when the server does not say). */
  get id(): string | undefined {
    return this.current;
  }

  /** Learns the id if it is not known yet (INFO may have failed at connect); resolves with it, or undefined. */
  learn(): Promise<string | undefined> {
    if (this.current !== undefined || this.redis.status !== 'ready') {
      return Promise.resolve(this.current);
    }
    this.learning ??= (async () => {
      const connection = this.connection;
      try {
        const info = await this.redis.info('server');
        if (connection === this.connection) {
          this.current = /^run_id:([0-9a-f]+)/m.exec(info)?.[1]?.slice(0, 16) ?? '';
        }
      } catch (error) {
        // A server that refuses INFO (an ACL without it, a managed Redis that hides it) has no id to tell: '' (requests
        // then carry none and are run as before). A timeout or a dropped connection: the next call asks again.
        if ((error as Error).name === 'ReplyError' && connection === this.connection) {
          this.current = '';
        }
      } finally {
        this.learning = undefined;
      }
      return this.current;
    })();
    return this.learning;
  }
}
