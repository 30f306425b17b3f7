import { z } from 'zod';
import { Env, LOG_LEVELS, NODE_ENVS, enumVar, urlVar } from './env-schema';
import { transportKeysEnvShape } from './transport-keys';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/game_wallet';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Variables every app reads. */
export const commonEnvShape = {
  NODE_ENV: enumVar(NODE_ENVS, 'development'),
  LOG_LEVEL: enumVar(LOG_LEVELS, 'info'),
  REDIS_URL: urlVar(['redis:', 'rediss:']),
  DATABASE_URL: urlVar(['postgres:', 'postgresql:']),
  /** Prefix of the transport's Redis keys; lets several platforms or test runs share one Redis. */
  TRANSPORT_KEY_PREFIX: z.preprocess((value) => (value === '' ? undefined : value), z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _.:-').default('gw')),
  ...transportKeysEnvShape,
};

/** The database URL of one service: its own variable, else `DATABASE_URL`, else (development) the local default. */
export function databaseUrlFor(env: Env, ownVariable: string | undefined, shared: string | undefined): string {
  return (ownVariable === undefined ? undefined : env[ownVariable]) || shared || DEFAULT_DATABASE_URL;
}

export { z };
