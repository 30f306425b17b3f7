import { DataSource } from 'typeorm';

interface PgClient {
  query(config: { text: string; values?: unknown[]; query_timeout?: number }): Promise<unknown>;
}

/**
 * How long a replica waits for the lock: far longer than the per-request limits of the pool (another replica may hold
 * it for longer: migrations, the first keys), yet finite. node-postgres reads a `query_timeout` of 0 as "the pool's".
 */
const LOCK_WAIT_MS = 60 * 60_000;

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name` (session-level, on a connection of its own), so
 * replicas starting together do one-time work (seeding, first keys) once. Waiting for the lock is not bounded by the
 * per-statement limits requests have (see {@link LOCK_WAIT_MS}).
 */
export async function runLocked<T>(dataSource: DataSource, name: string, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as PgClient;
  try {
    await client.query({ text: 'SET statement_timeout = 0' });
    await client.query({ text: 'SELECT pg_advisory_lock(hashtext($1))', values: [name], query_timeout: LOCK_WAIT_MS });
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.release();
  }
}
