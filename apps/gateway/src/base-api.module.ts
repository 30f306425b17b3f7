import { DynamicModule, Module } from '@nestjs/common';
import { HealthModule, drainingProbe, postgresProbe, redisProbe } from '@game-wallet/health';
import { APP_REDIS, AppRuntime, RuntimeModule } from '@game-wallet/http';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { API_PORT, OpenApiController } from './openapi/openapi.controller';
import { GATEWAY_DB, GatewayRuntimeModule, GatewayShared } from './gateway-runtime.module';
import { ConsoleAppController } from './console-app/console-app.controller';
import { ConsoleAccountController } from './console/console-account.controller';
import { ConsoleEndpointsController } from './console/console-endpoints.controller';
import { ConsoleGamesController } from './console/console-games.controller';
import { ConsoleWebhooksController } from './console/console-webhooks.controller';
import { ConsoleSessionController } from './console/console-session.controller';
import { PasswordSealer } from './console/password-sealer';
import { ConsoleTeamController } from './console/console-team.controller';
import { ServicesHealthController } from './health/services-health.controller';
import { JwksController } from './jwks/jwks.controller';
import { ProfilesController } from './profiles/profiles.controller';
import { WalletsController } from './wallets/wallets.controller';

/** Routes of `base_url`: health, JWKS, profiles, wallets, the console API and the web console's pages. */
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
          useFactory: (pool: Pool, redis: Redis) => [
            postgresProbe((sql) => pool.query(sql)),
            redisProbe(redis),
            drainingProbe(() => shared.lifecycle.draining),
          ],
        }),
      ],
      controllers: [
        ServicesHealthController,
        JwksController,
        ProfilesController,
        ConsoleSessionController,
        ConsoleAccountController,
        ConsoleEndpointsController,
        ConsoleGamesController,
        ConsoleWebhooksController,
        ConsoleTeamController,
        WalletsController,
        ConsoleAppController,
        OpenApiController,
      ],
      providers: [{ provide: API_PORT, useValue: 'base' }, PasswordSealer],
    };
  }
}
