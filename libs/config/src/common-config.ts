import { z } from 'zod';
import { Env, LOG_LEVELS, NODE_ENVS, enumVar, optionalStringVar, requireInProduction, urlVar } from './env-schema';
import { KEY_ID, keyringIds, parseKeyring } from './keyring';

/** Transport keys are HMAC-SHA256 keys: at least 32 bytes each. */
const TRANSPORT_KEY = { minBytes: 32 };

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
  /** Keys that authenticate every transport message: `id=base64,…` (HMAC-SHA256, ≥ 32 bytes each). */
  TRANSPORT_HMAC_KEYS: optionalStringVar().superRefine((value, context) => {
    const parsed = parseKeyring(value, TRANSPORT_KEY);
    if (typeof parsed === 'string') {
      context.addIssue({ code: 'custom', message: parsed });
    }
  }),
  /** The key new messages are signed with; optional when there is only one. */
  TRANSPORT_HMAC_KEY_ID: optionalStringVar(),
};

/** The transport's keys as configured: every key messages may be signed with, and the one to sign with. */
export interface TransportKeysConfig {
  keys: Map<string, Buffer>;
  /** undefined when no key is configured (development then generates one) */
  currentId?: string;
}

/**
 * Cross-variable rules of the transport keys: production needs them, and the current id must name one of them
 * (it may be left out when there is just one).
 */
export function checkTransportKeys(env: Env, context: z.RefinementCtx): void {
  const ids = keyringIds(env.TRANSPORT_HMAC_KEYS, TRANSPORT_KEY);
  const currentId = env.TRANSPORT_HMAC_KEY_ID?.trim() || undefined;
  requireInProduction(env, ['TRANSPORT_HMAC_KEYS'], context);
  if (currentId !== undefined && (!KEY_ID.test(currentId) || !ids.includes(currentId))) {
    context.addIssue({ code: 'custom', path: ['TRANSPORT_HMAC_KEY_ID'], message: 'must name one of the keys in TRANSPORT_HMAC_KEYS' });
  }
  if (currentId === undefined && ids.length > 1) {
    context.addIssue({ code: 'custom', path: ['TRANSPORT_HMAC_KEY_ID'], message: 'must name the current key when TRANSPORT_HMAC_KEYS holds several' });
  }
}

/** The transport keys of validated variables. */
export function transportKeysOf(parsed: { TRANSPORT_HMAC_KEYS?: string; TRANSPORT_HMAC_KEY_ID?: string }): TransportKeysConfig {
  const keys = parseKeyring(parsed.TRANSPORT_HMAC_KEYS, TRANSPORT_KEY) as Map<string, Buffer>;
  return { keys, currentId: parsed.TRANSPORT_HMAC_KEY_ID ?? (keys.size === 1 ? [...keys.keys()][0] : undefined) };
}

/** The database URL of one service: its own variable, else `DATABASE_URL`, else (development) the local default. */
export function databaseUrlFor(env: Env, ownVariable: string | undefined, shared: string | undefined): string {
  return (ownVariable === undefined ? undefined : env[ownVariable]) || shared || DEFAULT_DATABASE_URL;
}

export { z };
