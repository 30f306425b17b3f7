import { Counter, Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/** The metrics of one process. Each app owns one and serves it at `/metrics`. */
export class AppMetrics {
  readonly registry = new Registry();

  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly transportDuration: Histogram<'pattern' | 'outcome'>;
  readonly transportHandled: Counter<'pattern' | 'outcome'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency, by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.transportDuration = new Histogram({
      name: 'transport_request_duration_seconds',
      help: 'Round trip of a transport request as seen by the caller, by pattern and outcome',
      labelNames: ['pattern', 'outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.transportHandled = new Counter({
      name: 'transport_messages_handled_total',
      help: 'Transport messages taken by this service, by pattern and outcome (ok, error, expired)',
      labelNames: ['pattern', 'outcome'],
      registers: [this.registry],
    });
  }

  /** Registers gauges for a pg pool (total, idle and waiting clients). */
  observePool(name: string, pool: { totalCount: number; idleCount: number; waitingCount: number }): void {
    const gauge = (metric: string, help: string, read: () => number): void => {
      new Gauge({
        name: metric,
        help,
        labelNames: ['pool'],
        registers: [this.registry],
        collect() {
          this.set({ pool: name }, read());
        },
      });
    };
    gauge('db_pool_connections_total', 'Connections open in the database pool', () => pool.totalCount);
    gauge('db_pool_connections_idle', 'Idle connections in the database pool', () => pool.idleCount);
    gauge('db_pool_waiting_clients', 'Queries waiting for a database connection', () => pool.waitingCount);
  }
}
