import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { StreamEntry } from './wire';

export interface LivenessOptions {
  redis: Redis;
  stream: string;
  group: string;
  /** this replica's consumer name */
  consumer: string;
  heartbeatKeyOf: (consumer: string) => string;
  heartbeatTtlMs: number;
  warn: (message: string) => void;
  /** entries claimed from a dead replica, to be run (or dropped if expired) like newly read ones */
  onClaimed: (entries: StreamEntry[]) => void;
}

/**
 * Which replicas of a service are alive, and what happens to the work of those that are not: each replica refreshes a
 * heartbeat key; a replica whose key has lapsed is taken for dead, its pending entries are claimed by a live one and
 * the dead consumer is removed from the group once drained.
 */
export class ConsumerLiveness {
  private readonly logger = new Logger(ConsumerLiveness.name);

  constructor(private readonly options: LivenessOptions) {}

  async heartbeat(): Promise<void> {
    const { redis, consumer, heartbeatKeyOf, heartbeatTtlMs } = this.options;
    if (redis.status !== 'ready') {
      return;
    }
    await redis.set(heartbeatKeyOf(consumer), '1', 'PX', heartbeatTtlMs).catch(() => undefined);
  }

  /** Claims the pending entries of replicas whose heartbeat has lapsed, and forgets those replicas once drained. */
  async reclaim(): Promise<void> {
    const { redis, stream, group, consumer, heartbeatKeyOf } = this.options;
    if (redis.status !== 'ready') {
      return;
    }
    try {
      const consumers = (await redis.xinfo('CONSUMERS', stream, group)) as unknown[][];
      for (const info of consumers) {
        const fields = toRecord(info);
        const name = String(fields.name);
        if (name === consumer || (await redis.exists(heartbeatKeyOf(name)))) {
          continue;
        }
        if (Number(fields.pending) > 0) {
          await this.claimFrom(name);
        }
        await this.deleteConsumerIfIdle(name);
      }
    } catch (error) {
      if (!String(error).includes('NOGROUP')) {
        this.options.warn(`Reclaim on ${stream} failed: ${String(error)}`);
      }
    }
  }

  /** Removes a consumer from the group when it has nothing pending (a leaving replica, or a drained dead one). */
  async deleteConsumerIfIdle(name: string): Promise<void> {
    const { redis, stream, group } = this.options;
    const summary = (await redis.xpending(stream, group, '-', '+', 1, name).catch(() => [1])) as unknown[];
    if (summary.length === 0) {
      await redis.xgroup('DELCONSUMER', stream, group, name).catch(() => 0);
    }
  }

  private async claimFrom(deadConsumer: string): Promise<void> {
    const { redis, stream, group, consumer, heartbeatTtlMs } = this.options;
    const pending = (await redis.xpending(stream, group, '-', '+', 1000, deadConsumer)) as [string, string, number, number][];
    if (pending.length === 0) {
      return;
    }
    // The min-idle guard makes the claim exclusive: once one replica claimed an entry its idle time restarts at zero.
    const minIdle = Math.min(heartbeatTtlMs, 1000);
    const claimed = (await redis.xclaim(stream, group, consumer, minIdle, ...pending.map(([id]) => id))) as (StreamEntry | null)[];
    // Entries deleted from the stream meanwhile are dropped from the pending list by XCLAIM itself and not returned.
    const entries = claimed.filter((entry): entry is StreamEntry => entry !== null);
    if (entries.length > 0) {
      this.logger.warn(`Reclaimed ${entries.length} pending entries of ${stream} from stopped replica ${deadConsumer}`);
      this.options.onClaimed(entries);
    }
  }
}

function toRecord(flat: unknown[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) {
    record[String(flat[index])] = flat[index + 1];
  }
  return record;
}
