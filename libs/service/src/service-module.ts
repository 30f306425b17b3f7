import { DynamicModule, InjectionToken, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { ServiceName } from '@game-wallet/contracts';
import { MigrationMode, ServiceDatabaseModule } from '@game-wallet/database';
import { HealthModule, HealthProbe, postgresProbe, redisProbe } from '@game-wallet/health';
import { APP_REDIS, AppConfigModule, MetricsController, RuntimeModule } from '@game-wallet/http';
import { pingControllerFor } from '@game-wallet/transport';
import Redis from 'ioredis';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ServiceRuntime } from './start-service';
import { TransportKeysModule } from './transport-keys.module';

export interface ServiceModuleOptions<C> {
  service: ServiceName;
  runtime: ServiceRuntime;
  /** The app's validated configuration, offered under its own token. */
  config: { token: symbol; value: C };
  /** The service's own schema and who applies its migrations. */
  database: DataSourceOptions & { schema: string };
  migrations: MigrationMode;
  /** Dependencies `/v1/health` reports beyond the database and Redis (the wallet's HSM, say). */
  probes?: { inject: InjectionToken[]; useFactory: (...deps: never[]) => HealthProbe[] };
  /** The service's feature modules. */
  imports: NonNullable<ModuleMetadata['imports']>;
  providers?: Provider[];
}

/**
 * The root module of an internal service: the process's singletons, its configuration, its database (migrated before
 * anything uses it), `/v1/health` over the database, Redis and any other dependency, `/metrics`, the transport ping,
 * then the service's own features. Each service's root module is this one call.
 */
export function serviceModule<C>(module: Type, options: ServiceModuleOptions<C>): DynamicModule {
  const extra = options.probes;
  return {
    module,
    imports: [
      RuntimeModule.forRoot(options.runtime),
      TransportKeysModule.forRoot(options.runtime.transportKeys),
      AppConfigModule.forRoot(options.config.token, options.config.value),
      ServiceDatabaseModule.forRoot(options.database, options.migrations),
      HealthModule.forRoot({
        inject: [DataSource, APP_REDIS, ...(extra?.inject ?? [])],
        useFactory: (dataSource: DataSource, redis: Redis, ...deps: never[]) => [
          postgresProbe((sql) => dataSource.query(sql)),
          redisProbe(redis),
          ...(extra ? extra.useFactory(...deps) : []),
        ],
      }),
      ...options.imports,
    ],
    controllers: [MetricsController, pingControllerFor(options.service)],
    providers: options.providers ?? [],
  };
}
