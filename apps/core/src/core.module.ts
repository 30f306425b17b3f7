import { DynamicModule, Module } from '@nestjs/common';
import { ServiceClientModule, ServiceRuntime, serviceModule, transportOutboxRelay } from '@game-wallet/service';
import { CoreConfig } from './config';
import { CORE_CONFIG } from './core-config.token';
import { coreDataSourceOptions } from './database/data-source-options';
import { PlayersModule } from './players/players.module';

/** The core service: players, and their profile and wallet made through identity and the wallet service. */
@Module({})
export class CoreModule {
  static forRoot(config: CoreConfig, runtime: ServiceRuntime): DynamicModule {
    return serviceModule(CoreModule, {
      service: 'core',
      runtime,
      config: { token: CORE_CONFIG, value: config },
      database: coreDataSourceOptions(config.databaseUrl),
      migrations: config.migrations,
      imports: [ServiceClientModule.forRoot({ redisUrl: config.redisUrl, keyPrefix: config.keyPrefix, keys: runtime.transportKeys }), PlayersModule],
      // `player.created`, from the outbox to identity's webhook dispatcher.
      providers: [transportOutboxRelay('core')],
    });
  }
}
