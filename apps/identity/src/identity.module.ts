import { DynamicModule, Module } from '@nestjs/common';
import { ServiceDatabaseModule } from '@game-wallet/database';
import { HealthModule, postgresProbe, redisProbe } from '@game-wallet/health';
import { APP_REDIS, AppRuntime, MetricsController, RuntimeModule } from '@game-wallet/http';
import { pingControllerFor } from '@game-wallet/transport';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { IdentityConfig } from './config';
import { identityDataSourceOptions } from './database/data-source-options';

/** The identity service: transport handlers, plus health and metrics on its internal HTTP port. */
@Module({})
export class IdentityModule {
  static forRoot(config: IdentityConfig, runtime: AppRuntime): DynamicModule {
    return {
      module: IdentityModule,
      imports: [
        RuntimeModule.forRoot(runtime),
        ServiceDatabaseModule.forRoot(identityDataSourceOptions(config.databaseUrl)),
        HealthModule.forRoot({
          inject: [DataSource, APP_REDIS],
          useFactory: (dataSource: DataSource, redis: Redis) => [postgresProbe((sql) => dataSource.query(sql)), redisProbe(redis)],
        }),
      ],
      controllers: [MetricsController, pingControllerFor('identity')],
    };
  }
}
