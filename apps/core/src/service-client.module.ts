import { DynamicModule, Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { RedisStreamsClient, TransportKeyring } from '@game-wallet/transport';

/** The core service's own transport client: it asks identity for profiles and the wallet service for wallets. */
@Global()
@Module({})
export class ServiceClientModule implements OnModuleDestroy {
  constructor(@Inject(RedisStreamsClient) private readonly client: RedisStreamsClient) {}

  static forRoot(options: { redisUrl: string; keyPrefix: string; keyring: TransportKeyring }): DynamicModule {
    return {
      module: ServiceClientModule,
      providers: [
        {
          provide: RedisStreamsClient,
          useFactory: async () => {
            const client = new RedisStreamsClient({ name: 'core', redisUrl: options.redisUrl, keyPrefix: options.keyPrefix, keyring: options.keyring });
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
