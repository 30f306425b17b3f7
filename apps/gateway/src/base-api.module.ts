import { DynamicModule, Module } from '@nestjs/common';
import { HealthModule, postgresProbe, redisProbe } from '@game-wallet/health';
import { APP_REDIS, AppRuntime, RuntimeModule } from '@game-wallet/http';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { GATEWAY_DB, GatewayRuntimeModule, GatewayShared } from './gateway-runtime.module';
import { ServicesHealthController } from './health/services-health.controller';

/** Routes of `base_url`: health, and (as they arrive) profile, wallet, JWKS and console. */
@Module({})
export class BaseApiModule {
  static forRoot(runtime: AppRuntime, shared: GatewayShared): DynamicModule {
    return {
      module: BaseApiModule,
      imports: [
        RuntimeModule.forRoot(runtime, { closeRedis: false }),
        GatewayRuntimeModule.forRoot(shared),
        HealthModule.forRoot({
          inject: [GATEWAY_DB, APP_REDIS],
          useFactory: (pool: Pool, redis: Redis) => [postgresProbe((sql) => pool.query(sql)), redisProbe(redis)],
        }),
      ],
      controllers: [ServicesHealthController],
    };
  }
}
