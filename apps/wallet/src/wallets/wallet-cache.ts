import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@game-wallet/observability';
import { APP_REDIS } from '@game-wallet/http';
import { BroadcastSubscriber, RejectionLog, TransportKeys, broadcastContext, signValue, signedListener, walletUsedChannel } from '@game-wallet/transport';
import Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { WalletConfig } from '../config';
import { WALLET_CONFIG } from '../wallet-config.token';
import { WalletPublic } from './wallets.repository';

/**
 * Wallet reads from memory. Everything a read shows is fixed at creation except `lastUsedAt`; a signature on any
 * replica is broadcast, and every replica moves its cached `lastUsedAt` forward at once. After a broadcast reconnect
 * (messages may have been missed) the cache is emptied. Broadcasts are signed for their channel with the key the
 * wallet holds for its own replicas; one that is not is dropped (counted, logged once a minute).
 */
@Injectable()
export class WalletCache implements OnModuleInit, OnModuleDestroy {
  private readonly wallets = new LRUCache<string, WalletPublic>({ max: 50_000 });
  private readonly channel: string;
  private subscriber?: BroadcastSubscriber;
  private readonly rejections: RejectionLog;

  constructor(
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(WALLET_CONFIG) private readonly config: WalletConfig,
    private readonly keys: TransportKeys,
    metrics: AppMetrics,
  ) {
    this.channel = walletUsedChannel(config.keyPrefix);
    this.rejections = new RejectionLog(new Logger(WalletCache.name), `broadcasts on ${this.channel}`, (reason) => metrics.countRejected(reason));
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = new BroadcastSubscriber(this.config.redisUrl, 'wallet');
    await this.subscriber.on(
      this.channel,
      signedListener(this.keys, 'wallet', this.channel, this.rejections, (text) => {
        const [walletId, at] = text.split(' ');
        this.used(walletId, new Date(Number(at)));
      }),
    );
    this.subscriber.onResync(() => this.wallets.clear());
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.close();
  }

  get(walletId: string): WalletPublic | undefined {
    return this.wallets.get(walletId);
  }

  set(wallet: WalletPublic): void {
    this.wallets.set(wallet.id, wallet);
  }

  /** After a signature here: update this replica and tell the others (saved already; a lost message only delays). */
  async signed(walletId: string, at: Date): Promise<void> {
    this.used(walletId, at);
    await this.redis.publish(this.channel, signValue(this.keys, 'wallet', broadcastContext(this.channel), `${walletId} ${at.getTime()}`)).catch(() => 0);
  }

  private used(walletId: string, at: Date): void {
    const cached = this.wallets.get(walletId);
    if (cached && cached.lastUsedAt < at) {
      this.wallets.set(walletId, { ...cached, lastUsedAt: at });
    }
  }
}
