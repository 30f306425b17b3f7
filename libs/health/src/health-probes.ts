/** One dependency check: resolves when the dependency is up, rejects (with a reason) when it is down. */
export interface HealthProbe {
  name: string;
  check: () => Promise<unknown>;
}

/** Injection token of the probes behind `/v1/health` of an app. */
export const HEALTH_PROBES = Symbol('HEALTH_PROBES');

/** SPEC §4.3: each check is reported down after 1 s. */
export const PROBE_TIMEOUT_MS = 1000;

export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A probe running `SELECT 1` through `query`. */
export function postgresProbe(query: (sql: string) => Promise<unknown>, name = 'database'): HealthProbe {
  return { name, check: () => query('SELECT 1') };
}

/** A probe sending PING on a Redis connection. */
export function redisProbe(redis: { ping: () => Promise<string> }, name = 'redis'): HealthProbe {
  return { name, check: () => redis.ping() };
}
