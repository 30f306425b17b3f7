import { DEFAULT_REDIS_URL, Env, LogLevel, NodeEnv, commonEnvShape, databaseUrlFor, optionalStringVar, parseEnv, portVar, positiveIntVar, urlVar, z } from '@game-wallet/config';
import { resolve } from 'node:path';

export interface GatewayConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** Public port of `base_url` (profile, wallet, health, JWKS, console). */
  basePort: number;
  /** Public port of `core_url` (player). */
  corePort: number;
  /** Internal port: Prometheus `/metrics` (not routed by the Ingress). */
  internalPort: number;
  redisUrl: string;
  databaseUrl: string;
  keyPrefix: string;
  /** Deadline of a request to a service, in ms. */
  serviceDeadlineMs: number;
  /** Expected `iss` of tokens. */
  jwtIssuer: string;
  rateLimits: { apiKeyRps: number; apiKeyBurst: number; jwtRps: number };
  /** Trust `X-Forwarded-*` from the load balancer (client IP for sign-in limits, https for Secure cookies). */
  trustProxy: boolean;
  /** Public addresses shown in the console's examples; unset, they follow the address the console was opened at. */
  publicUrls: { base?: string; core?: string };
  /** Folder of the built web console (served at `/console`). */
  consoleDir: string;
}

/** Where the build puts the console, beside the gateway's own compiled code (`dist/apps/console`). */
const BUILT_CONSOLE_DIR = resolve(__dirname, '../../console');
const withoutTrailingSlash = (url: string | undefined): string | undefined => url?.replace(/\/+$/, '');

const blankToUndefined = (value: unknown): unknown => (value === '' ? undefined : value);

const schema = z
  .object({
    ...commonEnvShape,
    BASE_PORT: portVar(3000),
    CORE_PORT: portVar(3001),
    GATEWAY_INTERNAL_PORT: portVar(3100),
    SERVICE_DEADLINE_MS: positiveIntVar(5000),
    JWT_ISSUER: z.preprocess(blankToUndefined, z.string().max(200).default('game-wallet')),
    RATE_LIMIT_API_KEY_RPS: positiveIntVar(100),
    RATE_LIMIT_API_KEY_BURST: positiveIntVar(200),
    RATE_LIMIT_JWT_RPS: positiveIntVar(20),
    TRUST_PROXY: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('false')),
    PUBLIC_BASE_URL: urlVar(['http:', 'https:']),
    PUBLIC_CORE_URL: urlVar(['http:', 'https:']),
    CONSOLE_DIR: optionalStringVar(),
  })
  .superRefine((env, context) => {
    if (env.BASE_PORT === env.CORE_PORT) {
      context.addIssue({ code: 'custom', path: ['CORE_PORT'], message: 'must differ from BASE_PORT' });
    }
  });

/** The gateway's configuration, validated once at start. */
export function loadGatewayConfig(env: Env): GatewayConfig {
  const parsed = parseEnv(
    schema.superRefine((_, context) => {
      if (env.NODE_ENV === 'production') {
        for (const name of ['DATABASE_URL', 'REDIS_URL']) {
          if (!env[name]) {
            context.addIssue({ code: 'custom', path: [name], message: 'must be set when NODE_ENV=production' });
          }
        }
      }
    }),
    env,
  );
  return {
    nodeEnv: parsed.NODE_ENV,
    logLevel: parsed.LOG_LEVEL,
    basePort: parsed.BASE_PORT,
    corePort: parsed.CORE_PORT,
    internalPort: parsed.GATEWAY_INTERNAL_PORT,
    redisUrl: parsed.REDIS_URL ?? DEFAULT_REDIS_URL,
    databaseUrl: databaseUrlFor(env, undefined, parsed.DATABASE_URL),
    keyPrefix: parsed.TRANSPORT_KEY_PREFIX,
    serviceDeadlineMs: parsed.SERVICE_DEADLINE_MS,
    jwtIssuer: parsed.JWT_ISSUER,
    rateLimits: { apiKeyRps: parsed.RATE_LIMIT_API_KEY_RPS, apiKeyBurst: parsed.RATE_LIMIT_API_KEY_BURST, jwtRps: parsed.RATE_LIMIT_JWT_RPS },
    trustProxy: parsed.TRUST_PROXY === 'true',
    publicUrls: { base: withoutTrailingSlash(parsed.PUBLIC_BASE_URL), core: withoutTrailingSlash(parsed.PUBLIC_CORE_URL) },
    consoleDir: parsed.CONSOLE_DIR ?? BUILT_CONSOLE_DIR,
  };
}
