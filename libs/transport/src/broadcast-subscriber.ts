import { Logger } from '@nestjs/common';
import type { RedisTarget } from '@game-wallet/config';
import Redis from 'ioredis';
import { createFailFastRedis } from './transport-options';

type Listener = (message: string) => void;

/**
 * One pub/sub connection for the broadcasts an app follows. It re-subscribes after a reconnect and calls the
 * `onResync` hooks: messages sent while it was away are lost, so whoever caches must drop or reload its state.
 * Re-subscribing is ours, not ioredis's: its own attempt leaves a refusal (an ACL that no longer allows a channel)
 * unhandled, which ends the process. Ours logs it and tries again every second, resyncing once it succeeds.
 */
export class BroadcastSubscriber {
  private readonly logger = new Logger(BroadcastSubscriber.name);
  private readonly listeners = new Map<string, Listener[]>();
  private readonly resyncHooks: (() => void)[] = [];
  private readonly redis: Redis;
  private wasReady = false;
  private retry?: NodeJS.Timeout;

  constructor(redisUrl: RedisTarget, name: string) {
    this.redis = createFailFastRedis(redisUrl, `broadcasts:${name}`, {
      enableOfflineQueue: true,
      enableAutoPipelining: false,
      commandTimeout: undefined,
      autoResubscribe: false,
    });
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
        void this.resubscribe(false);
      }
      this.wasReady = true;
    });
  }

  /** Follows every channel again on a new connection; a refusal is tried again in a second (then resyncing). */
  private async resubscribe(resync: boolean): Promise<void> {
    clearTimeout(this.retry);
    const channels = [...this.listeners.keys()];
    try {
      if (channels.length > 0) {
        await this.redis.subscribe(...channels);
      }
      if (resync) {
        this.logger.log('Broadcasts followed again: resynchronising caches');
        this.resyncHooks.forEach((hook) => hook());
      }
    } catch (error) {
      this.logger.warn(`Could not follow the broadcasts again (${String(error)}); trying again in 1 s`);
      this.retry = setTimeout(() => void this.resubscribe(true), 1000);
      this.retry.unref();
    }
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
    clearTimeout(this.retry);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
