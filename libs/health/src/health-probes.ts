/** One dependency check: resolves when the dependency is up, rejects (with a reason) when it is down. */
export interface HealthProbe {
  name: string;
  check: () => Promise<unknown>;
}

/** Injection token of the probes behind `/v1/health` of an app. */
export const HEALTH_PROBES = Symbol('HEALTH_PROBES');

/** SPEC §4.3: each check is reported down after 1 s. */
export const PROBE_TIMEOUT_MS = 1000;

/** A probe that did not answer in time. */
export class ProbeTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'ProbeTimeout';
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(what, ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'timeout',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'host unreachable',
  '28P01': 'authentication failed',
  '28000': 'authentication failed',
  '57P01': 'shutting down',
  SHUTTING_DOWN: 'shutting down',
  '57P03': 'starting up',
  GATEWAY_TIMEOUT: 'timeout',
  SERVICE_UNAVAILABLE: 'unavailable',
};

/**
 * Why a dependency is down, in words fit for a public health answer: a fixed phrase ("connection refused",
 * "timeout"…), never the driver's text, which may name a host, a port, a user or a database. The detail goes to the
 * log instead.
 */
export function publicDownReason(error: unknown): string {
  if (error instanceof ProbeTimeout) {
    return 'timeout';
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES[code]) {
    return CONNECTION_CODES[code];
  }
  const text = error instanceof Error ? error.message : '';
  const known = Object.keys(CONNECTION_CODES).find((name) => /^[A-Z]/.test(name) && text.includes(name));
  if (known) {
    return CONNECTION_CODES[known];
  }
  if (/Connection is closed|connection terminated|Stream isn't writeable/i.test(text)) {
    return 'connection closed';
  }
  return 'unavailable';
}

/** A probe running `SELECT 1` through `query`. */
export function postgresProbe(query: (sql: string) => Promise<unknown>, name = 'database'): HealthProbe {
  return { name, check: () => query('SELECT 1') };
}

/**
 * Fails once the app started shutting down, so readiness turns 503 and load balancers stop sending it new requests
 * while it finishes the ones it has.
 */
export function drainingProbe(isDraining: () => boolean): HealthProbe {
  return {
    name: 'serving',
    check: () => (isDraining() ? Promise.reject(Object.assign(new Error('shutting down'), { code: 'SHUTTING_DOWN' })) : Promise.resolve()),
  };
}

/** A probe sending PING on a Redis connection. */
export function redisProbe(redis: { ping: () => Promise<string> }, name = 'redis'): HealthProbe {
  return { name, check: () => redis.ping() };
}
