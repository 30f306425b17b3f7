import { setTimeout as sleep } from 'node:timers/promises';

export interface BalancedGateway {
  name: string;
  /** base_url and core_url of this gateway */
  base: string;
  core: string;
  /** readiness at the last probe */
  ready: boolean;
}

export type BalancedAnswer = { status: number; body: unknown; ms: number } | { status: `network ${string}`; body?: undefined; ms: number };

/**
 * A load balancer in front of several gateways, as operators run one: it probes each gateway's readiness
 * (`/v1/health`) every 100 ms and sends requests round robin to the ready ones (to any of them when none is, as during
 * an outage); a connection that is refused — the request never sent — is tried again on another gateway.
 */
export class ReadinessBalancer {
  private turn = 0;
  private watching = true;
  private readonly watcher: Promise<void>;

  constructor(readonly gateways: BalancedGateway[]) {
    this.watcher = this.watch();
  }

  async send(port: 'base' | 'core', path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<BalancedAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const ready = this.gateways.filter((gateway) => gateway.ready);
      const pool = ready.length > 0 ? ready : this.gateways;
      const gateway = pool[this.turn++ % pool.length];
      const started = performance.now();
      try {
        const response = await fetch(`${gateway[port]}${path}`, {
          method: init.method ?? 'GET',
          headers: { ...init.headers, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, ms: performance.now() - started };
      } catch (error) {
        const code = (error as { cause?: { code?: string }; name?: string }).cause?.code ?? (error as Error).name;
        if (code === 'ECONNREFUSED' && attempt < 50) {
          gateway.ready = false;
          await sleep(20);
          continue;
        }
        return { status: `network ${code}`, ms: performance.now() - started };
      }
    }
  }

  async stop(): Promise<void> {
    this.watching = false;
    await this.watcher;
  }

  private async watch(): Promise<void> {
    while (this.watching) {
      await Promise.all(
        this.gateways.map(async (gateway) => {
          try {
            const response = await fetch(`${gateway.base}/v1/health`, { signal: AbortSignal.timeout(500) });
            gateway.ready = response.status === 200;
            await response.arrayBuffer();
          } catch {
            gateway.ready = false;
          }
        }),
      );
      await sleep(100);
    }
  }
}
