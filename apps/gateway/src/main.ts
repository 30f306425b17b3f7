import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { GatewayAuth } from '@game-wallet/auth';
import { ensureDatabase, migrateSchema, waitForMigrations } from '@game-wallet/database';
import { AppRuntime, createHttpApp, runMain } from '@game-wallet/http';
import { AppMetrics, createRootLogger } from '@game-wallet/observability';
import { RedisOutage, RedisStreamsClient, SHARED_TRANSPORT_KEYS_WARNING, TransportKeys, createFailFastRedis } from '@game-wallet/transport';
import { Pool } from 'pg';
import { BaseApiModule } from './base-api.module';
import { GatewayConfig, loadGatewayConfig } from './config';
import { findBuiltConsole, installConsoleApp } from './console-app/console-app';
import { CoreApiModule } from './core-api.module';
import { InternalModule } from './internal.module';
import { installApiDocs } from './openapi/api-docs';
import { gatewayDataSourceOptions } from './database/data-source-options';
import { installIdempotencyRecorder } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * How long a write's claim on its Idempotency-Key holds if its gateway dies before answering: well past the longest a
 * request can run here (the service deadline), so a retry never runs beside a first attempt still in flight.
 */
const idempotencyLeaseMs = (serviceDeadlineMs: number): number => Math.max(30_000, 2 * serviceDeadlineMs + 10_000);
/** Expired kept answers are deleted this often (by every replica: a few rows each time). */
const IDEMPOTENCY_PURGE_MS = 60_000;

runMain('gateway', async () => {
  const config = loadGatewayConfig(process.env);
  const logger = createRootLogger({ service: 'gateway', level: config.logLevel });
  const metrics = new AppMetrics('gateway');
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  await migrateGatewaySchema(config.databaseUrl, config.migrations, (message) => logger.info(message));
  const redis = createFailFastRedis(config.redisUrl, 'gateway:app');
  const pool = gatewayPool(config, 'game-wallet-gateway');
  metrics.observePool('gateway', pool);
  const transportKeys = TransportKeys.fromConfig('gateway', config.transportKeys, config.dataDir);
  if (transportKeys.shared) {
    logger.warn(SHARED_TRANSPORT_KEYS_WARNING);
  }
  const transport = new RedisStreamsClient({
    redisUrl: config.redisUrl,
    keyPrefix: config.keyPrefix,
    keys: transportKeys,
    onRejected: (reason) => metrics.countRejected(reason),
    deadlineMs: config.serviceDeadlineMs,
    onSettled: (pattern, outcome, seconds) => metrics.observeTransport(pattern, outcome, seconds),
  });
  await transport.connect();
  const auth = new GatewayAuth({
    transport,
    keys: transportKeys,
    onRejected: (reason) => metrics.countRejected(reason),
    redis,
    redisUrl: config.redisUrl,
    keyPrefix: config.keyPrefix,
    jwtIssuer: config.jwtIssuer,
    apiKeyLimit: { rate: config.rateLimits.apiKeyRps, burst: config.rateLimits.apiKeyBurst },
    profileLimit: { rate: config.rateLimits.jwtRps, burst: config.rateLimits.jwtRps },
    authFailuresPerIp: { rate: config.rateLimits.authFailuresPerIp, burst: config.rateLimits.authFailuresPerIp },
    signingPerWallet: { rate: config.rateLimits.signPerWalletRps, burst: config.rateLimits.signPerWalletRps },
  });
  await auth.start();

  const runtime: AppRuntime = { redis, metrics, logger };
  const consoleRoot = findBuiltConsole(config.consoleDir, logger);
  const lifecycle = { draining: false };
  // Claims of Idempotency-Keys commit without waiting for the disk (see IdempotencyStore); kept answers do wait.
  const claims = gatewayPool(config, 'game-wallet-gateway-claims', '-c synchronous_commit=off');
  const idempotency = new IdempotencyStore(pool, config.idempotencyTtlSeconds, idempotencyLeaseMs(config.serviceDeadlineMs), claims);
  const purge = setInterval(() => void idempotency.purgeExpired().catch(() => undefined), IDEMPOTENCY_PURGE_MS);
  purge.unref();
  const shared = { config, transport, pool, auth, idempotency, consoleRoot, lifecycle };
  const httpOptions = { trustProxy: config.trustProxy, translateError: new RedisOutage().translate };
  const base = await createHttpApp(BaseApiModule.forRoot(runtime, shared), logger, metrics, httpOptions);
  await base.register(fastifyCookie);
  if (consoleRoot !== null) {
    await installConsoleApp(base.getHttpAdapter().getInstance(), consoleRoot);
  }
  const core = await createHttpApp(CoreApiModule.forRoot(runtime, shared), logger, metrics, httpOptions);
  for (const app of [base, core]) {
    await installApiDocs(app.getHttpAdapter().getInstance());
    installIdempotencyRecorder(app.getHttpAdapter().getInstance(), idempotency, new Logger('Idempotency'));
  }
  const apps = [
    { name: 'base', port: config.basePort, app: base },
    { name: 'core', port: config.corePort, app: core },
    { name: 'internal', port: config.internalPort, app: await createHttpApp(InternalModule.forRoot(runtime), logger, metrics) },
  ];
  for (const { app, port } of apps) {
    // While draining, answers ask clients to reconnect (to another replica) rather than keep this connection.
    app.getHttpAdapter().getInstance().addHook('onSend', async (_request, reply) => {
      if (lifecycle.draining) {
        void reply.header('connection', 'close');
      }
    });
    await app.listen(port, '0.0.0.0');
  }
  logger.info(
    { basePort: config.basePort, corePort: config.corePort, internalPort: config.internalPort },
    `gateway ready: base_url on port ${config.basePort} (web console at /console), core_url on port ${config.corePort}, metrics on port ${config.internalPort}`,
  );

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      return;
    }
    stopping = true;
    lifecycle.draining = true;
    logger.info(`${signal} received: readiness answers 503 for ${config.shutdownDrainMs} ms, then the ports close once requests in flight finish`);
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    const timer = setTimeout(() => process.exit(1), 10_000);
    await Promise.all(apps.map(({ app }) => app.close()));
    clearInterval(purge);
    await auth.close();
    await transport.close();
    await Promise.all([redis.quit().catch(() => redis.disconnect()), pool.end().catch(() => undefined), claims.end().catch(() => undefined)]);
    clearTimeout(timer);
    logger.flush();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
});

/** A pool of the gateway's own connections; a dropped idle one is replaced on next use (health reports outages). */
function gatewayPool(config: GatewayConfig, applicationName: string, options?: string): Pool {
  const pool = new Pool({
    connectionString: config.databaseUrl,
    max: config.databasePoolSize,
    connectionTimeoutMillis: 1000,
    idleTimeoutMillis: 10_000,
    statement_timeout: 4000,
    application_name: applicationName,
    ...(options === undefined ? {} : { options }),
  });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The gateway's schema (kept Idempotency-Key answers): migrated as it starts, or by the migration job
 * (`MIGRATIONS=job`). Waits for PostgreSQL as the services do (30 tries a second apart).
 */
async function migrateGatewaySchema(databaseUrl: string, mode: 'start' | 'job', report: (message: string) => void): Promise<void> {
  const options = gatewayDataSourceOptions(databaseUrl);
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (mode === 'start') {
        const { applied } = await migrateSchema(options);
        report(applied.length > 0 ? `Schema gateway: applied ${applied.join(', ')}` : 'Schema gateway is up to date');
        return;
      }
      const dataSource = await new DataSource(options).initialize();
      try {
        await waitForMigrations(dataSource, report);
      } finally {
        await dataSource.destroy();
      }
      return;
    } catch (error) {
      if (attempt >= 30) {
        throw error;
      }
      report(`Schema gateway: PostgreSQL not ready (${String(error)}); trying again`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
