import { ServiceName } from '@game-wallet/contracts';
import { z } from 'zod';
import { commonEnvShape, databaseUrlFor, ownDatabaseUrlVar } from './common-config';
import { envDocs } from './env-docs';
import { Env, LogLevel, NodeEnv, parseEnv, portVar, requireInProduction, urlVar } from './env-schema';
import { RedisTarget, checkRedisTarget, redisTargetOf } from './redis-target';
import { TransportKeysConfig, checkTransportKeys, transportKeysOf } from './transport-keys';

/** Configuration every internal service shares. */
export interface ServiceConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** Internal HTTP port (health, metrics). */
  port: number;
  /** The Redis server, or the primary behind Sentinels, every connection of the service goes to. */
  redisUrl: RedisTarget;
  databaseUrl: string;
  keyPrefix: string;
  /** Folder for development-only generated secrets (`DATA_DIR`, default `.data`). */
  dataDir: string;
  transportKeys: TransportKeysConfig;
  /** Who applies the schema's migrations (`MIGRATIONS`): the service as it starts, or a migration job before it. */
  migrations: 'start' | 'job';
}

export interface ServiceConfigSpec<E extends z.ZodRawShape = Record<never, never>> {
  /** The service: which transport keys it needs follows from it. */
  service: ServiceName;
  /** e.g. `IDENTITY_PORT` */
  portVariable: string;
  defaultPort: number;
  /** e.g. `IDENTITY_DATABASE_URL`; falls back to `DATABASE_URL` */
  databaseVariable: string;
  /** The service's own variables, validated together with the common ones. */
  extra?: E;
  /** Variables that must be set explicitly when NODE_ENV=production (their development defaults are refused). */
  requiredInProduction?: string[];
  /** Checks across the service's own variables (one depends on another), reported with the rest. */
  refine?: (env: Env, context: z.RefinementCtx) => void;
}

/** `MIGRATIONS`: who applies an app's schema migrations (every app with a schema reads it). */
export function migrationsVar() {
  return z.preprocess((value) => (value === '' ? undefined : value), z.enum(['start', 'job']).default('start')).register(envDocs, {
    description:
      'Who applies the schema\'s migrations: `start`, the service as it starts (under a PostgreSQL advisory lock, so ' +
      'replicas starting together apply each once); `job`, a migration job run before it (`node migrate.js`), which ' +
      'the service waits for.',
  });
}

/**
 * Every variable a service reads: the common ones, its internal port and own database URL, `MIGRATIONS`, and its own
 * (`extra`). `docs/configuration.md` is generated from it.
 */
export function serviceEnvShape<E extends z.ZodRawShape>(spec: ServiceConfigSpec<E>) {
  return {
    ...commonEnvShape,
    [spec.portVariable]: portVar(spec.defaultPort).register(envDocs, {
      description:
        `TCP port (1–65535) of the ${spec.service} service's internal HTTP server: \`/v1/health\` (readiness), ` +
        '`/v1/health/live` (liveness) and Prometheus `/metrics`. Keep it off the Ingress.',
    }),
    [spec.databaseVariable]: ownDatabaseUrlVar(spec.service),
    MIGRATIONS: migrationsVar(),
    ...(spec.extra ?? ({} as E)),
  };
}

/**
 * Reads a service's configuration: the common variables plus the service's own (`extra`), all problems reported at
 * once, one line per variable. In production the database and Redis URLs, and `requiredInProduction`, must be set.
 */
export function loadServiceConfig<E extends z.ZodRawShape = Record<never, never>>(
  env: Env,
  spec: ServiceConfigSpec<E>,
): ServiceConfig & { extra: z.output<z.ZodObject<E>> } {
  const schema = z.object(serviceEnvShape(spec)).superRefine((_, context) => {
    checkTransportKeys(spec.service, env, context);
    if (env.NODE_ENV === 'production') {
      checkDatabaseUrl(env, spec, context);
    }
    checkRedisTarget(env, context);
    requireInProduction(env, spec.requiredInProduction ?? [], context);
    spec.refine?.(env, context);
  });
  const parsed = parseEnv(schema, env) as Record<string, unknown>;
  const extra = Object.fromEntries(Object.keys(spec.extra ?? {}).map((key) => [key, parsed[key]])) as z.output<z.ZodObject<E>>;
  return {
    nodeEnv: parsed.NODE_ENV as NodeEnv,
    logLevel: parsed.LOG_LEVEL as LogLevel,
    port: parsed[spec.portVariable] as number,
    redisUrl: redisTargetOf(parsed as Parameters<typeof redisTargetOf>[0]),
    databaseUrl: databaseUrlFor(env, spec.databaseVariable, parsed.DATABASE_URL as string | undefined),
    keyPrefix: parsed.TRANSPORT_KEY_PREFIX as string,
    dataDir: parsed.DATA_DIR as string,
    transportKeys: transportKeysOf(spec.service, env),
    migrations: parsed.MIGRATIONS as 'start' | 'job',
    extra,
  };
}

/** Production needs the service's database URL: its own variable or `DATABASE_URL`. */
function checkDatabaseUrl(env: Env, spec: { databaseVariable: string }, context: z.RefinementCtx): void {
  if (!env[spec.databaseVariable] && !env.DATABASE_URL) {
    context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: `must be set (or ${spec.databaseVariable}) when NODE_ENV=production` });
  }
}

/**
 * What a service's migration job reads: where its schema is, and nothing else (it needs none of the service's keys,
 * so its Job is given none).
 */
export function loadMigrationConfig(env: Env, databaseVariable: string): { nodeEnv: NodeEnv; databaseUrl: string } {
  const schema = z
    .object({
      NODE_ENV: commonEnvShape.NODE_ENV,
      DATABASE_URL: commonEnvShape.DATABASE_URL,
      [databaseVariable]: urlVar(['postgres:', 'postgresql:']),
    })
    .superRefine((_, context) => {
      if (env.NODE_ENV === 'production') {
        checkDatabaseUrl(env, { databaseVariable }, context);
      }
    });
  const parsed = parseEnv(schema, env) as Record<string, unknown>;
  return { nodeEnv: parsed.NODE_ENV as NodeEnv, databaseUrl: databaseUrlFor(env, databaseVariable, parsed.DATABASE_URL as string | undefined) };
}
