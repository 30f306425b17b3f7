import { DataSource } from 'typeorm';

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name` (session-level, on a connection of its own), so
 * replicas starting together do one-time work (seeding, first keys) once.
 */
export async function runLocked<T>(dataSource: DataSource, name: string, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await runner.release();
  }
}
