import { DataSource } from 'typeorm';

export interface MigrationReport {
  applied: string[];
}

/**
 * Runs the pending migrations of `dataSource` while holding a PostgreSQL advisory lock named after its schema, so
 * replicas starting together apply each migration once; those that wait find nothing left to do.
 * Creates the schema first (the migrations table lives in it).
 */
export async function runMigrationsLocked(dataSource: DataSource, schema: string): Promise<MigrationReport> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const lockName = `game-wallet:migrations:${schema}`;
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return { applied: applied.map((migration) => migration.name) };
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
    }
  } finally {
    await runner.release();
  }
}
