import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { WalletConfig } from '../config';
import { MasterKeyring } from './master-keyring';
import { MASTER_KEYS, masterKeysProvider } from './master-keys';

/** The master keys, for every feature of the wallet service; an HSM connection is closed at shutdown. */
@Global()
@Module({})
export class MasterKeysModule implements OnApplicationShutdown {
  constructor(@Inject(MASTER_KEYS) private readonly keyring: MasterKeyring) {}

  static forRoot(config: WalletConfig): DynamicModule {
    return {
      module: MasterKeysModule,
      providers: [masterKeysProvider(config)],
      exports: [MASTER_KEYS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.keyring.close();
  }
}
