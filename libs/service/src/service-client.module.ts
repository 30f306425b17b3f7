import { DynamicModule, Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import type { RedisTarget } from '@game-wallet/config';
import { RedisStreamsClient, TransportKeys } from '@game-wallet/transport';

export interface ServiceClientOptions {
  redisUrl: RedisTarget;
  keyPrefix: string;
  /** The service's own keys: it signs as itself, and its reply channel is named after it (`<app>-…`, which its Redis ACL user may listen to). */
  keys: TransportKeys;
}

/** A service's own transport client, for the services it calls (core: identity and wallet; wallet: identity). */
@Global()
@Module({})
export class ServiceClientModule implements OnModuleDestroy {
  constructor(@Inject(RedisStreamsClient) private readonly client: RedisStreamsClient) {}

  static forRoot(options: ServiceClientOptions): DynamicModule {
    return {
      module: ServiceClientModule,
      providers: [
        {
          provide: RedisStreamsClient,
          useFactory: async () => {
            const client = new RedisStreamsClient(options);
            await client.connect();
            return client;
          },
        },
      ],
      exports: [RedisStreamsClient],
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
