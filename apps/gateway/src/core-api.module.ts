import { DynamicModule, Module } from '@nestjs/common';
import { AppRuntime, RuntimeModule } from '@game-wallet/http';
import { API_PORT, OpenApiController } from './openapi/openapi.controller';
import { GatewayRuntimeModule, GatewayShared } from './gateway-runtime.module';
import { PlayersController } from './players/players.controller';

/** Routes of `core_url`: players. */
@Module({})
export class CoreApiModule {
  static forRoot(runtime: AppRuntime, shared: GatewayShared): DynamicModule {
    return {
      module: CoreApiModule,
      imports: [RuntimeModule.forRoot(runtime, { closeRedis: false }), GatewayRuntimeModule.forRoot(shared)],
      controllers: [PlayersController, OpenApiController],
      providers: [{ provide: API_PORT, useValue: 'core' }],
    };
  }
}
