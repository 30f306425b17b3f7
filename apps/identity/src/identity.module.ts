import { DynamicModule, Module } from '@nestjs/common';
import { ServiceDatabaseModule } from '@game-wallet/database';
import { HealthModule, postgresProbe, redisProbe } from '@game-wallet/health';
import { ServiceRuntime } from '@game-wallet/service';
import { APP_REDIS, AppConfigModule, MetricsController, RuntimeModule } from '@game-wallet/http';
import { pingControllerFor } from '@game-wallet/transport';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { IdentityConfig } from './config';
import { identityDataSourceOptions } from './database/data-source-options';
import { GamesModule } from './games/games.module';
import { IdentityBootstrap } from './identity-bootstrap';
import { IDENTITY_CONFIG } from './identity-config.token';
import { OperatorsModule } from './operators/operators.module';
import { ProfilesModule } from './profiles/profiles.module';
import { TokensModule } from './tokens/tokens.module';

/** The identity service: games, API keys, profiles, tokens, console operators, audit. */
@Module({})
export class IdentityModule {
  static forRoot(config: IdentityConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: IdentityModule,
      imports: [
        RuntimeModule.forRoot(runtime),
        AppConfigModule.forRoot(IDENTITY_CONFIG, config),
        ServiceDatabaseModule.forRoot(identityDataSourceOptions(config.databaseUrl), config.migrations),
        HealthModule.forRoot({
          inject: [DataSource, APP_REDIS],
          useFactory: (dataSource: DataSource, redis: Redis) => [postgresProbe((sql) => dataSource.query(sql)), redisProbe(redis)],
        }),
        AuditModule,
        GamesModule,
        ApiKeysModule,
        TokensModule,
        ProfilesModule,
        OperatorsModule,
      ],
      controllers: [MetricsController, pingControllerFor('identity')],
      providers: [IdentityBootstrap],
    };
  }
}
