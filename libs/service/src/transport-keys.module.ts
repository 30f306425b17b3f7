import { DynamicModule, Global, Module } from '@nestjs/common';
import { TransportKeys } from '@game-wallet/transport';

/** The process's transport keys, offered to every module (what a service signs besides replies: cache entries, broadcasts). */
@Global()
@Module({})
export class TransportKeysModule {
  static forRoot(keys: TransportKeys): DynamicModule {
    return { module: TransportKeysModule, providers: [{ provide: TransportKeys, useValue: keys }], exports: [TransportKeys] };
  }
}
