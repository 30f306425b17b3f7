import { isIP } from 'node:net';
import { z } from 'zod';
import { envDocs } from './env-docs';
import { Env, optionalStringVar } from './env-schema';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** One Sentinel's address. */
export interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * A Redis primary found through Redis Sentinel: the apps ask the Sentinels which node is the primary of the master set
 * `name`, connect to it, and ask again when it fails over.
 */
export interface RedisSentinelTarget {
  /**
   * The data nodes' sign-in, database and TLS, written as a Redis URL: `redis[s]://[user:password@]host[:port][/db]`.
   * Its host and port are not used: the Sentinels name the primary.
   */
  url: string;
  sentinels: SentinelAddress[];
  /** The master set's name (`sentinel monitor <name> …`). */
  name: string;
  /** The Sentinels' own sign-in (`requirepass`, or an ACL user of theirs), not the data nodes'. */
  sentinelUsername?: string;
  sentinelPassword?: string;
  /** TLS to the Sentinels (the data nodes' TLS follows the URL's `rediss:`). */
  sentinelTls: boolean;
}

/** Where an app's Redis is: one server, as a `redis://` or `rediss://` URL, or a primary behind Sentinels. */
export type RedisTarget = string | RedisSentinelTarget;

const blankToUndefined = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** `host:port` or `[v6 address]:port`; undefined when it is neither. */
export function parseSentinelAddress(entry: string): SentinelAddress | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(entry.trim());
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) {
    return undefined;
  }
  const host = match[1] ?? match[2];
  if (match[1] !== undefined && isIP(host) !== 6) {
    return undefined;
  }
  return { host, port };
}

/** The entries of `REDIS_SENTINELS`, or the 1-based positions of those that are not `host:port`. */
export function parseSentinels(value: string): { sentinels: SentinelAddress[]; bad: number[] } {
  const entries = value.split(',');
  const parsed = entries.map(parseSentinelAddress);
  return {
    sentinels: parsed.filter((entry): entry is SentinelAddress => entry !== undefined),
    bad: parsed.flatMap((entry, index) => (entry === undefined ? [index + 1] : [])),
  };
}

/** The Sentinel variables, in every app's schema beside `REDIS_URL`. */
export const redisSentinelEnvShape = {
  REDIS_SENTINELS: z
    .preprocess(
      blankToUndefined,
      z
        .string()
        .superRefine((value, context) => {
          const { bad } = parseSentinels(value);
          if (bad.length > 0) {
            // Positions only: like every other variable, no part of the value is repeated.
            context.addIssue({ code: 'custom', message: `entry ${bad.join(', ')}: must be host:port (a port from 1 to 65535), entries separated by commas` });
          }
        })
        .optional(),
    )
    .register(envDocs, {
      description:
        'Find the Redis primary through Redis Sentinel: the Sentinels as `host:port` entries separated by commas ' +
        '(`[v6 address]:port` for IPv6), e.g. `redis-sentinel-0:26379,redis-sentinel-1:26379,redis-sentinel-2:26379`, or ' +
        'the one Service of a Sentinel chart (`redis:26379`). Every connection (transport, caches, rate limits, ' +
        'broadcasts) then goes to the primary of `REDIS_SENTINEL_MASTER` and follows a failover by itself. The data ' +
        "nodes' user, password, database and TLS still come from `REDIS_URL` (`rediss://<app>:<password>@redis/0`), whose " +
        'host and port are then not used.',
      required: { when: 'in production, unless `REDIS_URL` is set' },
    }),
  REDIS_SENTINEL_MASTER: optionalStringVar()
    .refine((value) => value === undefined || /^[A-Za-z0-9_.-]{1,128}$/.test(value), 'must be 1-128 letters, digits or _.-')
    .register(envDocs, {
      description:
        "The master set's name the Sentinels monitor (`sentinel monitor <name> …`; `mymaster` in the Bitnami chart).",
      required: { when: 'with `REDIS_SENTINELS`' },
    }),
  REDIS_SENTINEL_USERNAME: optionalStringVar().register(envDocs, {
    description: "The user the apps sign in to the Sentinels as, when the Sentinels have ACL users of their own (not the data nodes' user).",
  }),
  REDIS_SENTINEL_PASSWORD: optionalStringVar().register(envDocs, {
    description:
      "The Sentinels' password (`requirepass` in sentinel.conf; the Bitnami chart uses the data nodes' password for both " +
      "unless told otherwise). The data nodes' password is the one in `REDIS_URL`.",
    secret: true,
  }),
  REDIS_SENTINEL_TLS: z
    .preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'))
    .register(envDocs, {
      description:
        'Whether the Sentinels are reached over TLS (`true`), checked against the system CAs and `NODE_EXTRA_CA_CERTS`. ' +
        "The data nodes' TLS follows `REDIS_URL` (`rediss://`).",
    }),
};

/**
 * The cross-variable rules of Redis: production needs `REDIS_URL` or `REDIS_SENTINELS`; Sentinels need the master
 * set's name; the Sentinel settings mean nothing without Sentinels.
 */
export function checkRedisTarget(env: Env, context: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production') {
    if (!env.REDIS_URL && !env.REDIS_SENTINELS) {
      context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'must be set (or REDIS_SENTINELS) when NODE_ENV=production' });
    }
  }
  const sentinels = blankToUndefined(env.REDIS_SENTINELS);
  if (sentinels !== undefined && blankToUndefined(env.REDIS_SENTINEL_MASTER) === undefined) {
    context.addIssue({ code: 'custom', path: ['REDIS_SENTINEL_MASTER'], message: 'must be set with REDIS_SENTINELS (the master set to follow)' });
  }
  if (sentinels === undefined) {
    for (const name of ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_PASSWORD']) {
      if (blankToUndefined(env[name]) !== undefined) {
        context.addIssue({ code: 'custom', path: [name], message: 'is set but REDIS_SENTINELS is not (set both, or neither)' });
      }
    }
  }
}

/** The parsed Redis variables (after the schema and {@link checkRedisTarget} accepted them) as a connection target. */
export function redisTargetOf(parsed: {
  REDIS_URL?: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_MASTER?: string;
  REDIS_SENTINEL_USERNAME?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_SENTINEL_TLS?: 'true' | 'false';
}): RedisTarget {
  const url = parsed.REDIS_URL ?? DEFAULT_REDIS_URL;
  if (parsed.REDIS_SENTINELS === undefined) {
    return url;
  }
  return {
    url,
    sentinels: parseSentinels(parsed.REDIS_SENTINELS).sentinels,
    name: parsed.REDIS_SENTINEL_MASTER ?? '',
    sentinelUsername: parsed.REDIS_SENTINEL_USERNAME,
    sentinelPassword: parsed.REDIS_SENTINEL_PASSWORD,
    sentinelTls: parsed.REDIS_SENTINEL_TLS === 'true',
  };
}
