import { DynamicModule, Global, Module } from '@nestjs/common';
import { IdentityConfig } from './config';
import { IDENTITY_CONFIG } from './identity-config.token';

/** Offers the validated configuration to every feature module. */
@Global()
@Module({})
export class IdentityConfigModule {
  static forRoot(config: IdentityConfig): DynamicModule {
    return { module: IdentityConfigModule, providers: [{ provide: IDENTITY_CONFIG, useValue: config }], exports: [IDENTITY_CONFIG] };
  }
}
