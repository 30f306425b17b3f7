import { DynamicModule, Global, Module } from '@nestjs/common';
import { WalletConfig } from '../config';
import { MASTER_KEYS, masterKeysProvider } from './master-keys';

/** The configuration and the master keys, for every feature of the wallet service. */
@Global()
@Module({})
export class MasterKeysModule {
  static forRoot(config: WalletConfig): DynamicModule {
    return {
      module: MasterKeysModule,
      providers: [masterKeysProvider(config)],
      exports: [MASTER_KEYS],
    };
  }
}
