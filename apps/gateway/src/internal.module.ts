import { DynamicModule, Module } from '@nestjs/common';
import { AppRuntime, MetricsController, RuntimeModule } from '@game-wallet/http';

/** The gateway's internal port: Prometheus metrics, kept off the public ports. */
@Module({})
export class InternalModule {
  static forRoot(runtime: AppRuntime): DynamicModule {
    return { module: InternalModule, imports: [RuntimeModule.forRoot(runtime, { closeRedis: false })], controllers: [MetricsController] };
  }
}
