import { DynamicModule, Global, Module } from '@nestjs/common';

/**
 * The one way an app offers its configuration (validated once at start, in `main.ts`) to its modules: under the
 * app's own token (`WALLET_CONFIG`, …), injected with `@Inject(TOKEN)`. Global, so feature modules need not import it.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot<T>(token: symbol, config: T): DynamicModule {
    return { module: AppConfigModule, providers: [{ provide: token, useValue: config }], exports: [token] };
  }
}
