import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AuthGuard, GatewayAuth } from '@game-wallet/auth';
import { AppConfigModule } from '@game-wallet/http';
import { RedisStreamsClient } from '@game-wallet/transport';
import { Pool } from 'pg';
import { GatewayConfig } from './config';
import { GATEWAY_CONFIG } from './gateway-config.token';
import { CONSOLE_ROOT } from './console-app/console-app';
import { ServiceCalls } from './services/service-calls';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency-store';

/** The gateway's own database pool (its health check). */
export const GATEWAY_DB = Symbol('GATEWAY_DB');

export interface GatewayShared {
  config: GatewayConfig;
  transport: RedisStreamsClient;
  pool: Pool;
  auth: GatewayAuth;
  /** Kept answers of writes sent with an `Idempotency-Key`. */
  idempotency: IdempotencyStore;
  /** The built web console's folder, or null when this gateway has none. */
  consoleRoot: string | null;
  /** Set on SIGTERM: readiness answers 503 while requests in flight finish. */
  lifecycle: { draining: boolean };
}

/**
 * Singletons shared by the gateway's Nest apps (one per public port): the transport client, the database pool, the
 * configuration and authentication. Made once in `main.ts`, so both ports share one set of connections and caches.
 * Also installs the global authentication guard of the app that imports it.
 */
@Global()
@Module({})
export class GatewayRuntimeModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: GatewayRuntimeModule,
      imports: [AppConfigModule.forRoot(GATEWAY_CONFIG, shared.config)],
      providers: [
        { provide: RedisStreamsClient, useValue: shared.transport },
        { provide: GATEWAY_DB, useValue: shared.pool },
        { provide: GatewayAuth, useValue: shared.auth },
        { provide: IdempotencyStore, useValue: shared.idempotency },
        { provide: CONSOLE_ROOT, useValue: shared.consoleRoot },
        ServiceCalls,
        // Every route of a public port goes through authentication (or is explicitly @Public).
        { provide: APP_GUARD, useClass: AuthGuard },
        // …and every write through Idempotency-Key handling, once authenticated.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
      exports: [RedisStreamsClient, GATEWAY_DB, GatewayAuth, CONSOLE_ROOT, ServiceCalls],
    };
  }
}
