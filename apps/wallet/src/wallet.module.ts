import { DynamicModule, Module } from '@nestjs/common';
import { ServiceClientModule, ServiceRuntime, serviceModule, transportOutboxRelay } from '@game-wallet/service';
import { WalletAuditModule } from './audit/audit.module';
import { WalletConfig } from './config';
import { walletDataSourceOptions } from './database/data-source-options';
import { MasterKeyring } from './keys/master-keyring';
import { MASTER_KEYS } from './keys/master-keys';
import { MasterKeysModule } from './keys/master-keys.module';
import { WALLET_CONFIG } from './wallet-config.token';
import { PoliciesModule } from './policies/policies.module';
import { SignaturesModule } from './signatures/signatures.module';
import { WalletsModule } from './wallets/wallets.module';

/** The wallet service: wallet keys (generation, envelope encryption), reads and signatures. */
@Module({})
export class WalletModule {
  static forRoot(config: WalletConfig, runtime: ServiceRuntime): DynamicModule {
    return serviceModule(WalletModule, {
      service: 'wallet',
      runtime,
      config: { token: WALLET_CONFIG, value: config },
      database: walletDataSourceOptions(config.databaseUrl),
      migrations: config.migrations,
      // With master keys in an HSM, /v1/health reports it (`hsm`).
      probes: { inject: [MASTER_KEYS], useFactory: (keyring: MasterKeyring) => (keyring.probe ? [keyring.probe] : []) },
      imports: [
        MasterKeysModule.forRoot(config),
        // `include=profile` on a wallet read: the wallet service asks identity for the profile itself; events go to identity.
        ServiceClientModule.forRoot({ redisUrl: config.redisUrl, keyPrefix: config.keyPrefix, keys: runtime.transportKeys }),
        WalletsModule,
        PoliciesModule,
        SignaturesModule,
        WalletAuditModule,
      ],
      // Signatures' and policy changes' events, from the outbox to identity's webhook dispatcher.
      providers: [transportOutboxRelay('wallet')],
    });
  }
}
