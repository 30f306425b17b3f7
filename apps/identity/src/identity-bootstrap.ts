import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BROADCAST, broadcastChannel } from '@game-wallet/contracts';
import { runLocked } from '@game-wallet/database';
import { BroadcastSubscriber } from '@game-wallet/transport';
import { DataSource } from 'typeorm';
import { IdentityConfig } from './config';
import { IDENTITY_CONFIG } from './identity-config.token';
import { FirstOperator } from './team/first-operator';
import { SigningKeysService } from './tokens/signing-keys.service';

/**
 * One-time start-up work, before the service takes messages: the first signing key and the first console operator
 * (under an advisory lock, so replicas starting together create them once), then the keys loaded and rotations
 * followed.
 */
@Injectable()
export class IdentityBootstrap implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdentityBootstrap.name);
  private subscriber?: BroadcastSubscriber;

  constructor(
    private readonly dataSource: DataSource,
    private readonly signingKeys: SigningKeysService,
    private readonly firstOperator: FirstOperator,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await runLocked(this.dataSource, 'game-wallet:identity:bootstrap', async () => {
      await this.signingKeys.ensureKey();
      await this.firstOperator.ensure();
    });
    await this.signingKeys.reload();
    this.subscriber = new BroadcastSubscriber(this.config.redisUrl, 'identity');
    const reload = (): void => {
      this.signingKeys.reload().catch((error: unknown) => this.logger.warn(`Reloading signing keys failed: ${String(error)}`));
    };
    await this.subscriber.on(broadcastChannel(this.config.keyPrefix, BROADCAST.signingKeys), reload);
    this.subscriber.onResync(reload);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.close();
  }
}
