import { DynamicModule, Module } from '@nestjs/common';
import { ServiceDatabaseModule } from '@game-wallet/database';
import { HealthModule, postgresProbe, redisProbe } from '@game-wallet/health';
import { ServiceClientModule, ServiceRuntime } from '@game-wallet/service';
import { APP_REDIS, AppConfigModule, MetricsController, RuntimeModule } from '@game-wallet/http';
import { pingControllerFor } from '@game-wallet/transport';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { CoreConfig } from './config';
import { CORE_CONFIG } from './core-config.token';
import { coreDataSourceOptions } from './database/data-source-options';
import { PlayersModule } from './players/players.module';

/** The core service: players, and their profile and wallet made through identity and the wallet service. */
@Module({})
export class CoreModule {
  static forRoot(config: CoreConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        RuntimeModule.forRoot(runtime),
        AppConfigModule.forRoot(CORE_CONFIG, config),
        ServiceDatabaseModule.forRoot(coreDataSourceOptions(config.databaseUrl), config.migrations),
        HealthModule.forRoot({
          inject: [DataSource, APP_REDIS],
          useFactory: (dataSource: DataSource, redis: Redis) => [postgresProbe((sql) => dataSource.query(sql)), redisProbe(redis)],
        }),
        ServiceClientModule.forRoot({ name: 'core', redisUrl: config.redisUrl, keyPrefix: config.keyPrefix, keyring: runtime.transportKeyring }),
        PlayersModule,
      ],
      controllers: [MetricsController, pingControllerFor('core')],
    };
  }
}
