import { DynamicModule, Global, Module } from '@nestjs/common';
import { TransportKeyring } from '@game-wallet/transport';

/** The process's transport keys, offered to every module (what a service signs for the gateways: cache entries, broadcasts). */
@Global()
@Module({})
export class TransportKeyringModule {
  static forRoot(keyring: TransportKeyring): DynamicModule {
    return { module: TransportKeyringModule, providers: [{ provide: TransportKeyring, useValue: keyring }], exports: [TransportKeyring] };
  }
}
