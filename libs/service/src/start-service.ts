import { AppMetrics, createRootLogger } from '@game-wallet/observability';
import { ServiceName } from '@game-wallet/contracts';
import { LogLevel, RedisTarget, ServiceConfig } from '@game-wallet/config';
import { DatabaseOutage, ensureDatabase } from '@game-wallet/database';
import { RedisOutage, RedisStreamsServer, SHARED_TRANSPORT_KEYS_WARNING, TransportKeys, createFailFastRedis } from '@game-wallet/transport';
import { DynamicModule } from '@nestjs/common';
import { AppRuntime, ErrorTranslator, createHttpApp, runMain } from '@game-wallet/http';

/** An internal service's singletons: the app's, plus the keys that sign and check its transport messages. */
export interface ServiceRuntime extends AppRuntime {
  transportKeys: TransportKeys;
}

export interface ServiceStartOptions {
  service: ServiceName;
  logLevel: LogLevel;
  redisUrl: RedisTarget;
  keyPrefix: string;
  /** Internal HTTP port (health, metrics). */
  port: number;
  host?: string;
  transportKeys: TransportKeys;
  /** Failures the service knows how to answer (see HttpErrorFilter). */
  translateError?: ErrorTranslator;
  /** Builds the root module from the process's singletons. */
  module: (runtime: ServiceRuntime) => DynamicModule;
}

/**
 * Starts an internal service: its Nest app, the Redis Streams consumer for its stream, and the internal HTTP port
 * (health and metrics). SIGTERM stops taking messages, lets handlers in flight finish (≤ 10 s), then closes.
 */
export async function startService(options: ServiceStartOptions): Promise<{ close: () => Promise<void> }> {
  const logger = createRootLogger({ service: options.service, level: options.logLevel });
  const metrics = new AppMetrics(options.service);
  const redis = createFailFastRedis(options.redisUrl, `${options.service}:app`);
  if (options.transportKeys.shared) {
    logger.warn(SHARED_TRANSPORT_KEYS_WARNING);
  }
  const runtime: ServiceRuntime = { redis, metrics, logger, transportKeys: options.transportKeys };
  const app = await createHttpApp(options.module(runtime), logger, metrics, { translateError: options.translateError });
  const server = new RedisStreamsServer({
    service: options.service,
    redisUrl: options.redisUrl,
    keyPrefix: options.keyPrefix,
    keys: options.transportKeys,
    onRejected: (reason) => metrics.countRejected(reason),
    onHandled: (pattern, outcome, seconds) => {
      metrics.countHandled(pattern, outcome);
      if (outcome === 'ok' || outcome === 'error') {
        metrics.observeTransport(pattern, outcome, seconds);
      }
    },
  });
  // The app's exception filter also serves the transport handlers (it answers them as error data).
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  await app.init(); // start-up hooks (migrations, first keys) finish before the first message is taken
  await app.startAllMicroservices();
  await app.listen(options.port, options.host ?? '0.0.0.0');
  logger.info({ port: options.port, consumer: server.consumer }, `${options.service} ready: internal HTTP on port ${options.port}, consuming ${options.service} requests`);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const timer = setTimeout(() => process.exit(1), 15_000);
      // First stop consuming and let handlers in flight finish (≤ 10 s): Nest's destroy hooks, which run before it
      // closes microservices, would otherwise close what those handlers still use (core's transport client).
      await server.close();
      await app.close();
      clearTimeout(timer);
      logger.flush();
    })();
    return closing;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info(`${signal} received: finishing messages in flight, then stopping`);
      void close().then(() => process.exit(0));
    });
  }
  return { close };
}

/** A database or a Redis outage answered as 503, whichever the failure is. */
const outagesOf =
  (...outages: { translate: ErrorTranslator }[]): ErrorTranslator =>
  (error) => {
    for (const outage of outages) {
      const translated = outage.translate(error);
      if (translated !== undefined) {
        return translated;
      }
    }
    return undefined;
  };

/**
 * The whole `main` of an internal service with a database (identity, wallet, core): its configuration validated once,
 * its database made in development, then {@link startService} with the transport keys and a database outage
 * answered as 503 `SERVICE_UNAVAILABLE` with `Retry-After` (not 500).
 */
export function runDatabaseService<C extends ServiceConfig>(
  service: ServiceName,
  loadConfig: (env: NodeJS.ProcessEnv) => C,
  module: (config: C, runtime: ServiceRuntime) => DynamicModule,
): void {
  runMain(service, async () => {
    const config = loadConfig(process.env);
    if (config.nodeEnv !== 'production') {
      await ensureDatabase(config.databaseUrl);
    }
    await startService({
      service,
      logLevel: config.logLevel,
      redisUrl: config.redisUrl,
      keyPrefix: config.keyPrefix,
      port: config.port,
      transportKeys: TransportKeys.fromConfig(service, config.transportKeys, config.dataDir),
      translateError: outagesOf(new DatabaseOutage(), new RedisOutage()),
      module: (runtime) => module(config, runtime),
    });
  });
}
