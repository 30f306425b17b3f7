import { DynamicModule, Module } from '@nestjs/common';
import { ServiceDatabaseModule } from '@game-wallet/database';
import { HealthModule, postgresProbe, redisProbe } from '@game-wallet/health';
import { ServiceClientModule, ServiceRuntime } from '@game-wallet/service';
import { APP_REDIS, AppConfigModule, MetricsController, RuntimeModule } from '@game-wallet/http';
import { pingControllerFor } from '@game-wallet/transport';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { WalletConfig } from './config';
import { walletDataSourceOptions } from './database/data-source-options';
import { MasterKeysModule } from './keys/master-keys.module';
import { WALLET_CONFIG } from './wallet-config.token';
import { PoliciesModule } from './policies/policies.module';
import { SignaturesModule } from './signatures/signatures.module';
import { WalletsModule } from './wallets/wallets.module';

/** The wallet service: wallet keys (generation, envelope encryption), reads and signatures. */
@Module({})
export class WalletModule {
  static forRoot(config: WalletConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: WalletModule,
      imports: [
        RuntimeModule.forRoot(runtime),
        ServiceDatabaseModule.forRoot(walletDataSourceOptions(config.databaseUrl), config.migrations),
        HealthModule.forRoot({
          inject: [DataSource, APP_REDIS],
          useFactory: (dataSource: DataSource, redis: Redis) => [postgresProbe((sql) => dataSource.query(sql)), redisProbe(redis)],
        }),
        AppConfigModule.forRoot(WALLET_CONFIG, config),
        MasterKeysModule.forRoot(config),
        // `include=profile` on a wallet read: the wallet service asks identity for the profile itself.
        ServiceClientModule.forRoot({ name: 'wallet', redisUrl: config.redisUrl, keyPrefix: config.keyPrefix, keyring: runtime.transportKeyring }),
        WalletsModule,
        PoliciesModule,
        SignaturesModule,
      ],
      controllers: [MetricsController, pingControllerFor('wallet')],
    };
  }
}
