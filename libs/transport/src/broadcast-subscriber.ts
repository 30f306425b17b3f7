import { Logger } from '@nestjs/common';
import type { RedisTarget } from '@game-wallet/config';
import Redis from 'ioredis';
import { createFailFastRedis } from './transport-options';

type Listener = (message: string) => void;

/**
 * One pub/sub connection for the broadcasts an app follows. It re-subscribes after a reconnect and then calls the
 * `onResync` hooks: messages sent while it was away are lost, so whoever caches must drop or reload its state.
 */
export class BroadcastSubscriber {
  private readonly logger = new Logger(BroadcastSubscriber.name);
  private readonly listeners = new Map<string, Listener[]>();
  private readonly resyncHooks: (() => void)[] = [];
  private readonly redis: Redis;
  private wasReady = false;

  constructor(redisUrl: RedisTarget, name: string) {
    this.redis = createFailFastRedis(redisUrl, `broadcasts:${name}`, { enableOfflineQueue: true, enableAutoPipelining: false, commandTimeout: undefined });
    this.redis.on('message', (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) {
        try {
          listener(message);
        } catch (error) {
          this.logger.error(`Broadcast listener on ${channel} failed: ${String(error)}`);
        }
      }
    });
    this.redis.on('ready', () => {
      if (this.wasReady) {
        this.logger.log('Broadcasts reconnected: resynchronising caches');
        this.resyncHooks.forEach((hook) => hook());
      }
      this.wasReady = true;
    });
  }

  /** Follows `channel`; resolves once subscribed (or after 1 s, the subscription then completes on connect). */
  async on(channel: string, listener: Listener): Promise<void> {
    const existing = this.listeners.get(channel);
    if (existing) {
      existing.push(listener);
      return;
    }
    this.listeners.set(channel, [listener]);
    await Promise.race([this.redis.subscribe(channel).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000))]);
  }

  onResync(hook: () => void): void {
    this.resyncHooks.push(hook);
  }

  get connected(): boolean {
    return this.redis.status === 'ready';
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
