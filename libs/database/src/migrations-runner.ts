import { DataSource } from 'typeorm';
import { runLocked } from './run-locked';

export interface MigrationReport {
  applied: string[];
}

/**
 * Runs the pending migrations of `dataSource` while holding a PostgreSQL advisory lock named after its schema, so
 * replicas starting together apply each migration once; those that wait find nothing left to do.
 * Creates the schema first (the migrations table lives in it) unless it exists: under least-privilege roles
 * (deploy/postgres/roles.sql) the schema is made beforehand and the service's role may not create one.
 */
export function runMigrationsLocked(dataSource: DataSource, schema: string): Promise<MigrationReport> {
  return runLocked(dataSource, `game-wallet:migrations:${schema}`, async () => {
    const found = (await dataSource.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])) as unknown[];
    if (found.length === 0) {
      await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return { applied: applied.map((migration) => migration.name) };
  });
}
