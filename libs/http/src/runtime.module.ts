import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppMetrics } from '@game-wallet/observability';
import Redis from 'ioredis';
import type { Logger } from 'pino';

/** The app's general-purpose Redis connection (fail-fast; the transport keeps its own). */
export const APP_REDIS = Symbol('APP_REDIS');

export interface AppRuntime {
  redis: Redis;
  metrics: AppMetrics;
  logger: Logger;
}

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(APP_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Process-wide singletons made in `main.ts` before Nest starts, offered to every module of the app. */
@Global()
@Module({})
export class RuntimeModule {
  static forRoot(runtime: AppRuntime, options: { closeRedis?: boolean } = {}): DynamicModule {
    return {
      module: RuntimeModule,
      providers: [
        { provide: APP_REDIS, useValue: runtime.redis },
        { provide: AppMetrics, useValue: runtime.metrics },
        ...(options.closeRedis === false ? [] : [RedisCloser]),
      ],
      exports: [APP_REDIS, AppMetrics],
    };
  }
}
