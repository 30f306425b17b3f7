import { AppName } from '@game-wallet/contracts';
import { accessSync, constants, statSync } from 'node:fs';
import { z } from 'zod';
import { envDocs } from './env-docs';
import { Env, LOG_LEVELS, NODE_ENVS, enumVar, optionalStringVar, urlVar } from './env-schema';
import { DEFAULT_REDIS_URL, redisSentinelEnvShape } from './redis-target';
import { transportKeysEnvShape } from './transport-keys';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/game_wallet';

const blankToUndefined = (value: unknown): unknown => (value === '' ? undefined : value);

const isReadableFile = (path: string): boolean => {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Variables every app reads. */
export const commonEnvShape = {
  NODE_ENV: enumVar(NODE_ENVS, 'development').register(envDocs, {
    description:
      'Which defaults apply: `production` refuses the development defaults (every variable required in production ' +
      'must be set) and creates no database; `development` and `test` (what the test suites run with) use them. One ' +
      'of `development`, `test`, `production`.',
  }),
  LOG_LEVEL: enumVar(LOG_LEVELS, 'info').register(envDocs, {
    description:
      'The lowest level written to the log (JSON lines on stdout): one of `fatal`, `error`, `warn`, `info`, `debug`, ' +
      '`trace`, or `silent` for none.',
  }),
  REDIS_URL: urlVar(['redis:', 'rediss:']).register(envDocs, {
    description:
      'The Redis server the transport, the caches and the rate limits use: `redis://host:port`, `rediss://` for TLS, ' +
      "and `rediss://<app>:<password>@host:6379` to sign in as the app's own ACL user. A password in it is a secret. " +
      "With `REDIS_SENTINELS` it gives only the data nodes' user, password, database and TLS.",
    required: { production: true, when: 'unless `REDIS_SENTINELS` is set' },
    default: `\`${DEFAULT_REDIS_URL}\``,
  }),
  ...redisSentinelEnvShape,
  DATABASE_URL: urlVar(['postgres:', 'postgresql:']).register(envDocs, {
    description:
      "The PostgreSQL database of every app that has no URL of its own (`<APP>_DATABASE_URL`): `postgres://user:password@host:5432/database` (or `postgresql://`). " +
      'In development the database is created if missing. A password in it is a secret.',
    required: { production: true, when: "unless the app's own `<APP>_DATABASE_URL` is set" },
    default: `\`${DEFAULT_DATABASE_URL}\``,
  }),
  TRANSPORT_KEY_PREFIX: z
    .preprocess(blankToUndefined, z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _.:-').default('gw'))
    .register(envDocs, {
      description:
        "Prefix of the transport's Redis keys and channels, so several platforms (or test runs) can share one Redis: " +
        '1–64 letters, digits or `_.:-`. Every app of one platform has the same.',
    }),
  ...transportKeysEnvShape,
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('.data')).register(envDocs, {
    description:
      'Folder where development generates and keeps its secrets (the transport keys, the master key, the key-encryption ' +
      "key, the first operator's password): a path, relative to the working directory. Production sets every secret " +
      'and generates none.',
  }),
  NODE_EXTRA_CA_CERTS: optionalStringVar()
    .refine((path) => path === undefined || isReadableFile(path), 'must be the path of a readable PEM file')
    .register(envDocs, {
      description:
        'Path of a PEM file of the CA that signed the Redis (or PostgreSQL) server certificate, when it is a private ' +
        'one. Node.js reads it as the process starts; the app refuses to start when the file cannot be read.',
    }),
};

/** How each app uses its own database role (`deploy/postgres/roles.sql`). */
const OWN_DATABASE_ROLE: Record<AppName, string> = {
  gateway: 'the role `gw_gateway`, which owns the gateway schema (its migrations run as it; the answers kept for `Idempotency-Key`) and nothing else',
  identity: 'the role `gw_identity`, which owns the identity schema (its migrations run as it) and nothing else',
  wallet: 'the role `gw_wallet`, which owns the wallet schema (its migrations run as it) and nothing else',
  core: 'the role `gw_core`, which owns the core schema (its migrations run as it) and nothing else',
};

/** `<APP>_DATABASE_URL`: one app's own database URL, in place of `DATABASE_URL`. */
export const ownDatabaseUrlVar = (app: AppName) =>
  urlVar(['postgres:', 'postgresql:']).register(envDocs, {
    description:
      `${app === 'gateway' ? "The gateway's" : `The ${app} service's`} own PostgreSQL URL, written as \`DATABASE_URL\`, ` +
      'to connect with a least-privilege role: ' +
      `${OWN_DATABASE_ROLE[app]}. A password in it is a secret.`,
    default: '`DATABASE_URL`',
  });

/** The database URL of one service: its own variable, else `DATABASE_URL`, else (development) the local default. */
export function databaseUrlFor(env: Env, ownVariable: string | undefined, shared: string | undefined): string {
  return (ownVariable === undefined ? undefined : env[ownVariable]) || shared || DEFAULT_DATABASE_URL;
}

export { z };
