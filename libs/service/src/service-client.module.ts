import { DynamicModule, Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { RedisStreamsClient, TransportKeyring } from '@game-wallet/transport';

export interface ServiceClientOptions {
  /** Names the client's reply channel (`<name>-…`, which its Redis ACL user may listen to). */
  name: string;
  redisUrl: string;
  keyPrefix: string;
  keyring: TransportKeyring;
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
