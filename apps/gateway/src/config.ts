import {
  Env,
  RedisTarget,
  checkRedisTarget,
  LogLevel,
  NodeEnv,
  TransportKeysConfig,
  checkTransportKeys,
  commonEnvShape,
  databaseUrlFor,
  envDocs,
  jwtIssuerEnvShape,
  optionalStringVar,
  migrationsVar,
  ownDatabaseUrlVar,
  parseEnv,
  portVar,
  positiveIntVar,
  redisTargetOf,
  transportKeysOf,
  urlVar,
  z,
} from '@game-wallet/config';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

export interface GatewayConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** Public port of `base_url` (profile, wallet, health, JWKS, console). */
  basePort: number;
  /** Public port of `core_url` (player). */
  corePort: number;
  /** Internal port: Prometheus `/metrics` (not routed by the Ingress). */
  internalPort: number;
  /** The Redis server, or the primary behind Sentinels, every connection of the gateway goes to. */
  redisUrl: RedisTarget;
  databaseUrl: string;
  /** Connections of the gateway's pool (health, idempotency keys). */
  databasePoolSize: number;
  /** Who applies the `gateway` schema's migrations (`MIGRATIONS`). */
  migrations: 'start' | 'job';
  /** Seconds an answer kept for an `Idempotency-Key` is replayed. */
  idempotencyTtlSeconds: number;
  keyPrefix: string;
  /** Deadline of a request to a service, in ms. */
  /** ms between SIGTERM (readiness turns 503) and closing the ports */
  shutdownDrainMs: number;
  serviceDeadlineMs: number;
  /** Expected `iss` of tokens. */
  jwtIssuer: string;
  rateLimits: { apiKeyRps: number; apiKeyBurst: number; jwtRps: number; authFailuresPerIp: number; signPerWalletRps: number };
  /**
   * Which proxies' `X-Forwarded-*` to believe (client IP for limits and audit, https for Secure cookies): none, the
   * nearest N hops, or the proxies at these addresses/CIDRs. The client IP is the one the farthest trusted proxy saw.
   */
  trustProxy: false | number | string[];
  /** Public addresses shown in the console's examples; unset, they follow the address the console was opened at. */
  publicUrls: { base?: string; core?: string };
  /** Folder of the built web console (served at `/console`). */
  consoleDir: string;
  transportKeys: TransportKeysConfig;
  /** Folder for development-only generated secrets (`DATA_DIR`, default `.data`). */
  dataDir: string;
}

/**
 * Where the built console is found: `console/` beside the gateway's bundle in its image, or the build's own output
 * beside the gateway's (`dist/apps/console`).
 */
const BUILT_CONSOLE_DIR = [join(__dirname, 'console'), resolve(__dirname, '../console')].find((dir) => existsSync(dir)) ?? join(__dirname, 'console');
const withoutTrailingSlash = (url: string | undefined): string | undefined => url?.replace(/\/+$/, '');

const blankToUndefined = (value: unknown): unknown => (value === '' ? undefined : value);

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One trusted proxy: an IP, a CIDR (`10.0.0.0/8`, `fd00::/8`) or `loopback`/`linklocal`/`uniquelocal`. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) {
    return true;
  }
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) {
    return false;
  }
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * `false` (default), a hop count (`1`: the load balancer in front), or a comma-separated list of proxy addresses and
 * CIDRs. `true` is refused: it would believe an `X-Forwarded-For` that any client can write.
 */
const trustProxyVar = z.preprocess(
  blankToUndefined,
  z
    .string()
    .default('false')
    .refine(
      (value) =>
        value === 'false' ||
        /^[1-9]\d{0,1}$/.test(value) ||
        value.split(',').every((entry) => isProxyAddress(entry.trim())),
      'must be false, a hop count (e.g. 1) or a comma-separated list of trusted proxy addresses or CIDRs (true would believe any client\'s X-Forwarded-For)',
    )
    .transform((value): false | number | string[] => {
      if (value === 'false') {
        return false;
      }
      return /^\d+$/.test(value) ? Number(value) : value.split(',').map((entry) => entry.trim());
    }),
);

/** Every variable the gateway reads; `docs/configuration.md` is generated from it. */
export const gatewayEnvShape = {
  ...commonEnvShape,
  BASE_PORT: portVar(3000).register(envDocs, {
    description:
      'TCP port (1–65535) of the public `base_url`: profiles, wallets, health, JWKS, the OpenAPI document and the web ' +
      'console with its API.',
  }),
  CORE_PORT: portVar(3001).register(envDocs, {
    description: 'TCP port (1–65535) of the public `core_url`: players and its OpenAPI document. Must differ from `BASE_PORT`.',
  }),
  GATEWAY_INTERNAL_PORT: portVar(3100).register(envDocs, {
    description: "TCP port (1–65535) of the gateway's internal HTTP server: Prometheus `/metrics`. Keep it off the Ingress.",
  }),
  GATEWAY_DATABASE_URL: ownDatabaseUrlVar('gateway'),
  MIGRATIONS: migrationsVar(),
  IDEMPOTENCY_TTL_SECONDS: positiveIntVar(86_400).register(envDocs, {
    description:
      'How long the answer to a write sent with an `Idempotency-Key` is kept and replayed to a retry with the same key, ' +
      'in seconds (a positive whole number); after it the key may be used afresh.',
  }),
  GATEWAY_DATABASE_POOL_SIZE: positiveIntVar(10).register(envDocs, {
    description:
      "Connections the gateway opens to PostgreSQL at most (a positive whole number): its health check and the " +
      'answers kept for `Idempotency-Key`.',
  }),
  SERVICE_DEADLINE_MS: positiveIntVar(5000).register(envDocs, {
    description:
      'How long the gateway waits for a service to answer a call, in milliseconds (a positive whole number); past it ' +
      'the request answers 504 `GATEWAY_TIMEOUT`, and may or may not have run.',
  }),
  SHUTDOWN_DRAIN_MS: z
    .preprocess(blankToUndefined, z.string().regex(/^\d+$/, 'must be a whole number of ms').transform(Number).optional())
    .register(envDocs, {
      description:
        'On SIGTERM, how long `/v1/health` answers 503 (while the gateway still serves, with `Connection: close`) ' +
        'before the ports close, so load balancers move away first: milliseconds, a whole number (`0`: none).',
      default: '`5000` in production, `0` otherwise',
    }),
  ...jwtIssuerEnvShape,
  RATE_LIMIT_API_KEY_RPS: positiveIntVar(100).register(envDocs, {
    description:
      'Requests per second each API key may make, across gateway replicas (the refill rate of its token bucket in ' +
      'Redis); over it 429 `RATE_LIMITED` with `Retry-After`.',
  }),
  RATE_LIMIT_API_KEY_BURST: positiveIntVar(200).register(envDocs, {
    description: "Requests an API key may make at once before its rate applies (the size of its token bucket).",
  }),
  RATE_LIMIT_JWT_RPS: positiveIntVar(20).register(envDocs, {
    description:
      'Requests per second each profile may make with its JWTs, across gateway replicas (the bucket holds as many); ' +
      'over it 429 `RATE_LIMITED` with `Retry-After`.',
  }),
  RATE_LIMIT_AUTH_FAILURES_PER_IP: positiveIntVar(50).register(envDocs, {
    description:
      'Failed authentications (401) a client IP may make per second, across gateway replicas, before every credential ' +
      'from it gets 429 `RATE_LIMITED` with `Retry-After`.',
  }),
  RATE_LIMIT_SIGN_PER_WALLET_RPS: positiveIntVar(10).register(envDocs, {
    description:
      'Signing requests (messages, transactions, typed data) per wallet per second, whatever the credential, across ' +
      'gateway replicas; over it 429 `RATE_LIMITED` with `Retry-After`.',
  }),
  TRUST_PROXY: trustProxyVar.register(envDocs, {
    description:
      "Which proxies' `X-Forwarded-*` headers to believe (the client IP for rate limits and the audit, https for " +
      'Secure cookies): `false`; a comma-separated list of addresses, CIDRs or `loopback`, `linklocal`, `uniquelocal` ' +
      '(`10.0.0.0/8,loopback`); or a hop count (`1`) where clients can reach the gateway only through the proxies. ' +
      '`true` is refused: it would believe any client.',
  }),
  PUBLIC_BASE_URL: urlVar(['http:', 'https:']).register(envDocs, {
    description:
      'The public URL of `base_url` the console shows in its examples: an `http://` or `https://` URL (a trailing `/` ' +
      'is dropped). Set it behind a load balancer with a host per origin.',
    default: 'the address the console was opened at',
  }),
  PUBLIC_CORE_URL: urlVar(['http:', 'https:']).register(envDocs, {
    description:
      'The public URL of `core_url` the console shows in its examples: an `http://` or `https://` URL (a trailing `/` ' +
      'is dropped). Set it behind a load balancer with a host per origin.',
    default: 'the host the console was opened at, on `CORE_PORT`',
  }),
  CONSOLE_DIR: optionalStringVar().register(envDocs, {
    description: 'Folder of the built web console, served at `/console`: a path. Without a console there, `/console` answers 404 saying so.',
    default: "`console/` beside the gateway's bundle (in its image), else `dist/apps/console`",
  }),
};

const schema = z
  .object(gatewayEnvShape)
  .superRefine((env, context) => {
    if (env.BASE_PORT === env.CORE_PORT) {
      context.addIssue({ code: 'custom', path: ['CORE_PORT'], message: 'must differ from BASE_PORT' });
    }
  });

/** The gateway's configuration, validated once at start. */
export function loadGatewayConfig(env: Env): GatewayConfig {
  const parsed = parseEnv(
    schema.superRefine((_, context) => {
      checkTransportKeys('gateway', env, context);
      if (env.NODE_ENV === 'production') {
        if (!env.GATEWAY_DATABASE_URL && !env.DATABASE_URL) {
          context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'must be set (or GATEWAY_DATABASE_URL) when NODE_ENV=production' });
        }
      }
      checkRedisTarget(env, context);
    }),
    env,
  );
  return {
    nodeEnv: parsed.NODE_ENV,
    logLevel: parsed.LOG_LEVEL,
    basePort: parsed.BASE_PORT,
    corePort: parsed.CORE_PORT,
    internalPort: parsed.GATEWAY_INTERNAL_PORT,
    redisUrl: redisTargetOf(parsed),
    databaseUrl: databaseUrlFor(env, 'GATEWAY_DATABASE_URL', parsed.DATABASE_URL),
    databasePoolSize: parsed.GATEWAY_DATABASE_POOL_SIZE,
    migrations: parsed.MIGRATIONS,
    idempotencyTtlSeconds: parsed.IDEMPOTENCY_TTL_SECONDS,
    keyPrefix: parsed.TRANSPORT_KEY_PREFIX,
    serviceDeadlineMs: parsed.SERVICE_DEADLINE_MS,
    // Long enough for load balancers to see readiness fail (Kubernetes removes the pod within a probe period or two).
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS ?? (parsed.NODE_ENV === 'production' ? 5000 : 0),
    jwtIssuer: parsed.JWT_ISSUER,
    rateLimits: {
      apiKeyRps: parsed.RATE_LIMIT_API_KEY_RPS,
      apiKeyBurst: parsed.RATE_LIMIT_API_KEY_BURST,
      jwtRps: parsed.RATE_LIMIT_JWT_RPS,
      authFailuresPerIp: parsed.RATE_LIMIT_AUTH_FAILURES_PER_IP,
      signPerWalletRps: parsed.RATE_LIMIT_SIGN_PER_WALLET_RPS,
    },
    trustProxy: parsed.TRUST_PROXY,
    publicUrls: { base: withoutTrailingSlash(parsed.PUBLIC_BASE_URL), core: withoutTrailingSlash(parsed.PUBLIC_CORE_URL) },
    consoleDir: parsed.CONSOLE_DIR ?? BUILT_CONSOLE_DIR,
    transportKeys: transportKeysOf('gateway', env),
    dataDir: parsed.DATA_DIR,
  };
}
