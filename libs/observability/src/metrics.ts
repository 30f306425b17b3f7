import { Counter, Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/** How often the event-loop delay (`nodejs_eventloop_lag_*`) is sampled. */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** The metrics of one process. Each app owns one and serves it at `/metrics`. */
export class AppMetrics {
  readonly registry = new Registry();

  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly transportDuration: Histogram<'pattern' | 'outcome'>;
  readonly transportHandled: Counter<'pattern' | 'outcome'>;
  /** Transport messages dropped because they were not signed with a transport key (possible tampering). */
  readonly transportRejected: Counter<'reason'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    // The event-loop delay is sampled 10 times a second, not prom-client's default 100: at 100 Hz the sampling timer
    // alone kept an idle app busy 8 ms of CPU per second (per process, every replica); 10 Hz still shows any lag.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
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
    this.transportRejected = new Counter({
      name: 'transport_messages_rejected_total',
      help: 'Transport messages dropped unread: not signed with the key of a link to this app (unsigned, unknown-key, bad-signature), or sent by an app not allowed to send them (refused-sender)',
      labelNames: ['reason'],
      registers: [this.registry],
    });
  }

  private readonly httpChildren = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  private readonly transportChildren = new Map<string, Histogram.Internal<string>>();
  private readonly handledChildren = new Map<string, Counter.Internal>();

  /**
   * One HTTP request answered. Label children are looked up once per (method, route, status) and kept: prom-client
   * would otherwise hash the labels on every request.
   */
  observeHttp(method: string, route: string, status: string, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = { count: this.httpRequests.labels(method, route, status), duration: this.httpDuration.labels(method, route, status) };
      this.httpChildren.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  }

  /** One transport round trip as seen by the caller. */
  observeTransport(pattern: string, outcome: string, seconds: number): void {
    const key = `${pattern} ${outcome}`;
    let child = this.transportChildren.get(key);
    if (!child) {
      child = this.transportDuration.labels(pattern, outcome);
      this.transportChildren.set(key, child);
    }
    child.observe(seconds);
  }

  /** One transport message taken by a service. */
  countHandled(pattern: string, outcome: string): void {
    const key = `${pattern} ${outcome}`;
    let child = this.handledChildren.get(key);
    if (!child) {
      child = this.transportHandled.labels(pattern, outcome);
      this.handledChildren.set(key, child);
    }
    child.inc();
  }

  /** One transport message dropped for its signature (unsigned, unknown-key, bad-signature). */
  countRejected(reason: string): void {
    this.transportRejected.labels(reason).inc();
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
