import { z } from 'zod';
import { DEFAULT_REDIS_URL, commonEnvShape, databaseUrlFor } from './common-config';
import { Env, LogLevel, NodeEnv, parseEnv, portVar, urlVar } from './env-schema';

/** Configuration every internal service shares. */
export interface ServiceConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** Internal HTTP port (health, metrics). */
  port: number;
  redisUrl: string;
  databaseUrl: string;
  keyPrefix: string;
}

export interface ServiceConfigSpec {
  /** e.g. `IDENTITY_PORT` */
  portVariable: string;
  defaultPort: number;
  /** e.g. `IDENTITY_DATABASE_URL`; falls back to `DATABASE_URL` */
  databaseVariable: string;
}

/**
 * Reads a service's configuration. In production the database and Redis URLs must be given explicitly; the
 * development defaults (local Postgres and Redis) are refused.
 */
export function loadServiceConfig(env: Env, spec: ServiceConfigSpec): ServiceConfig {
  const schema = z
    .object({
      ...commonEnvShape,
      [spec.portVariable]: portVar(spec.defaultPort),
      [spec.databaseVariable]: urlVar(['postgres:', 'postgresql:']),
    })
    .superRefine((_, context) => {
      if (env.NODE_ENV !== 'production') {
        return;
      }
      if (!env[spec.databaseVariable] && !env.DATABASE_URL) {
        context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: `must be set (or ${spec.databaseVariable}) when NODE_ENV=production` });
      }
      if (!env.REDIS_URL) {
        context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'must be set when NODE_ENV=production' });
      }
    });
  const parsed = parseEnv(schema, env) as Record<string, unknown>;
  return {
    nodeEnv: parsed.NODE_ENV as NodeEnv,
    logLevel: parsed.LOG_LEVEL as LogLevel,
    port: parsed[spec.portVariable] as number,
    redisUrl: (parsed.REDIS_URL as string | undefined) ?? DEFAULT_REDIS_URL,
    databaseUrl: databaseUrlFor(env, spec.databaseVariable, parsed.DATABASE_URL as string | undefined),
    keyPrefix: parsed.TRANSPORT_KEY_PREFIX as string,
  };
}
