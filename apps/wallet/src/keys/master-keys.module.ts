import { DynamicModule, Global, Module } from '@nestjs/common';
import { WalletConfig } from '../config';
import { MASTER_KEYS, masterKeysProvider } from './master-keys';

/** The master keys, for every feature that seals or opens wallet secrets. */
@Global()
@Module({})
export class MasterKeysModule {
  static forRoot(config: WalletConfig): DynamicModule {
    return { module: MasterKeysModule, providers: [masterKeysProvider(config)], exports: [MASTER_KEYS] };
  }
}
