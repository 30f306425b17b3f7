import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './launch/ports';
import { RunningProcess } from './launch/processes';
import { PrivateRedis } from './private-servers';
import { waitFor } from './wait';

export interface SentinelSetOptions {
  /** The data nodes' password (`requirepass`, `masterauth`, and the Sentinels' `auth-pass`). */
  password?: string;
  /** The Sentinels' own password (`requirepass` in sentinel.conf). */
  sentinelPassword?: string;
  /** How long a primary must be silent before a Sentinel calls it down (default 2000 ms). */
  downAfterMs?: number;
}

/**
 * A primary, a replica and three Sentinels (quorum 2) of the suite's own, on free ports, their configuration in a
 * private temp folder: a Redis that fails over. Real `redis-server` and `redis-server --sentinel`, no persistence.
 */
export class PrivateRedisSentinels {
  static readonly MASTER = 'gwmaster';

  private constructor(
    private readonly dir: string,
    /** The nodes as started: `nodes[0]` the first primary, `nodes[1]` its replica. */
    readonly nodes: PrivateRedis[],
    readonly sentinelPorts: number[],
    private readonly sentinels: RunningProcess[],
    private readonly options: SentinelSetOptions,
  ) {}

  static async start(options: SentinelSetOptions = {}): Promise<PrivateRedisSentinels> {
    const dir = mkdtempSync(join(tmpdir(), 'gwt-sentinel-'));
    // A replica keeps the copy it syncs in its `dir`: the set's temp folder, never the working directory.
    const auth = ['--dir', dir, ...(options.password === undefined ? [] : ['--masterauth', options.password])];
    const primary = await PrivateRedis.start({ password: options.password, args: auth });
    const replica = await PrivateRedis.start({ password: options.password, args: [...auth, '--replicaof', '127.0.0.1', String(primary.port)] });
    const ports = [await freePort(), await freePort(), await freePort()];
    const sentinels = ports.map((port) => {
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${PrivateRedisSentinels.MASTER} 127.0.0.1 ${primary.port} 2`,
          `sentinel down-after-milliseconds ${PrivateRedisSentinels.MASTER} ${options.downAfterMs ?? 2000}`,
          `sentinel failover-timeout ${PrivateRedisSentinels.MASTER} 10000`,
          `sentinel parallel-syncs ${PrivateRedisSentinels.MASTER} 1`,
          ...(options.password === undefined ? [] : [`sentinel auth-pass ${PrivateRedisSentinels.MASTER} ${options.password}`]),
          ...(options.sentinelPassword === undefined ? [] : [`requirepass ${options.sentinelPassword}`]),
          '',
        ].join('\n'),
      );
      return new RunningProcess(`sentinel-${port}`, spawn('redis-server', [conf, '--sentinel'], { stdio: ['ignore', 'pipe', 'pipe'] }));
    });
    const set = new PrivateRedisSentinels(dir, [primary, replica], ports, sentinels, options);
    // Ready once every Sentinel knows the replica and the other two Sentinels (they find each other through the primary).
    await waitFor(
      async () => {
        const views = await Promise.all(ports.map((port) => set.ask(port, ['SENTINEL', 'MASTER', PrivateRedisSentinels.MASTER])));
        return views.every((view) => {
          const fields = pairs(view);
          return fields['num-slaves'] === '1' && fields['num-other-sentinels'] === '2';
        });
      },
      30_000,
      'the Sentinels to see the replica and each other',
    );
    return set;
  }

  /** What the apps need to follow the primary through these Sentinels (host and port of `REDIS_URL` unused). */
  get env(): Record<string, string> {
    const password = this.options.password === undefined ? '' : `:${encodeURIComponent(this.options.password)}@`;
    return {
      REDIS_URL: `redis://${password}${PrivateRedisSentinels.MASTER}`,
      REDIS_SENTINELS: this.sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_MASTER: PrivateRedisSentinels.MASTER,
      ...(this.options.sentinelPassword === undefined ? {} : { REDIS_SENTINEL_PASSWORD: this.options.sentinelPassword }),
    };
  }

  /** The port of the node the Sentinels now call the primary. */
  async primaryPort(): Promise<number> {
    for (const port of this.sentinelPorts) {
      const answer = await this.ask(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PrivateRedisSentinels.MASTER]).catch(() => undefined);
      if (Array.isArray(answer) && answer.length === 2) {
        return Number(answer[1]);
      }
    }
    throw new Error('No Sentinel answers');
  }

  /** The node the Sentinels now call the primary. */
  async primary(): Promise<PrivateRedis> {
    const port = await this.primaryPort();
    const node = this.nodes.find((candidate) => candidate.port === port);
    if (!node) {
      throw new Error(`The Sentinels name an unknown primary (port ${port})`);
    }
    return node;
  }

  /** Waits until the Sentinels name a primary other than `port` (a failover done), and returns it. */
  async waitForNewPrimary(port: number, timeoutMs = 20_000): Promise<PrivateRedis> {
    await waitFor(async () => (await this.primaryPort().catch(() => port)) !== port, timeoutMs, 'the Sentinels to promote a replica');
    return this.primary();
  }

  /** An admin connection straight to `node` (not through the Sentinels). */
  connect(node: PrivateRedis): Redis {
    const redis = new Redis(node.url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
    redis.on('error', () => undefined);
    return redis;
  }

  async destroy(): Promise<void> {
    await Promise.all(this.sentinels.map((sentinel) => sentinel.stop('SIGKILL')));
    await Promise.all(this.nodes.map((node) => node.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async ask(port: number, command: [string, ...string[]]): Promise<unknown> {
    const redis = new Redis({ port, host: '127.0.0.1', password: this.options.sentinelPassword, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await redis.call(...command);
    } finally {
      redis.disconnect();
    }
  }
}

/** `[k1, v1, k2, v2…]` as an object. */
function pairs(reply: unknown): Record<string, string> {
  const list = Array.isArray(reply) ? (reply as string[]) : [];
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < list.length; index += 2) {
    fields[list[index]] = list[index + 1];
  }
  return fields;
}
