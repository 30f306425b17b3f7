import { DynamicModule, Global, Module } from '@nestjs/common';
import { RedisStreamsClient } from '@game-wallet/transport';
import { Pool } from 'pg';
import { GatewayConfig } from './config';
import { ServiceCalls } from './services/service-calls';

/** The gateway's own database pool (its health check). */
export const GATEWAY_DB = Symbol('GATEWAY_DB');

export interface GatewayShared {
  config: GatewayConfig;
  transport: RedisStreamsClient;
  pool: Pool;
}

/**
 * Singletons shared by the gateway's Nest apps (one per public port): the transport client, the database pool and the
 * configuration. Made once in `main.ts`, so both ports share one set of connections.
 */
@Global()
@Module({})
export class GatewayRuntimeModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: GatewayRuntimeModule,
      providers: [
        { provide: RedisStreamsClient, useValue: shared.transport },
        { provide: GATEWAY_DB, useValue: shared.pool },
        { provide: 'GATEWAY_CONFIG', useValue: shared.config },
        ServiceCalls,
      ],
      exports: [RedisStreamsClient, GATEWAY_DB, 'GATEWAY_CONFIG', ServiceCalls],
    };
  }
}
