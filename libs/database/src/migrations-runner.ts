import { loadMigrationConfig } from '@game-wallet/config';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ensureDatabase } from './ensure-database';
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

/** The pool settings of a migration connection: no per-statement limits (an index on a large table may take minutes). */
export function migrationOptions(options: DataSourceOptions): DataSourceOptions {
  const extra = (options as { extra?: Record<string, unknown> }).extra ?? {};
  // Two connections: one holds the migrations' advisory lock while the other runs them.
  return { ...options, extra: { ...extra, max: 2, statement_timeout: 0, query_timeout: undefined } } as DataSourceOptions;
}

/** Applies a schema's pending migrations on a connection of its own (the migration job, or a service at start). */
export async function migrateSchema(options: DataSourceOptions & { schema: string }): Promise<MigrationReport> {
  const migrator = await new DataSource(migrationOptions(options)).initialize();
  try {
    return await runMigrationsLocked(migrator, options.schema);
  } finally {
    await migrator.destroy();
  }
}

/**
 * With `MIGRATIONS=job` a service does not change its schema: it waits until the migration job has applied every
 * migration it knows (so a Deployment may be applied together with its job), saying so every `reportEveryMs`.
 */
export async function waitForMigrations(
  dataSource: DataSource,
  report: (message: string) => void,
  { pollMs = 2000, reportEveryMs = 10_000 } = {},
): Promise<void> {
  let reported = 0;
  while (await hasPendingMigrations(dataSource)) {
    if (Date.now() - reported >= reportEveryMs) {
      reported = Date.now();
      report(`Schema ${String((dataSource.options as { schema?: string }).schema)} has pending migrations: waiting for the migration job (MIGRATIONS=job)`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function hasPendingMigrations(dataSource: DataSource): Promise<boolean> {
  try {
    return await dataSource.showMigrations();
  } catch (error) {
    // Before the job's first run the schema, or its migrations table, does not exist yet.
    if ((error as { code?: string }).code === '42P01' || (error as { code?: string }).code === '3F000') {
      return true;
    }
    throw error;
  }
}

/**
 * A service's migration job (`node migrate.js`): reads only the service's database URL (`databaseVariable`, else
 * DATABASE_URL), applies the pending migrations, says what it did. In development it first creates the database, as
 * the service does.
 */
export async function runMigrationJob(
  service: string,
  databaseVariable: string,
  optionsFor: (databaseUrl: string) => DataSourceOptions & { schema: string },
): Promise<void> {
  const config = loadMigrationConfig(process.env, databaseVariable);
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  const { applied } = await migrateSchema(optionsFor(config.databaseUrl));
  process.stdout.write(applied.length > 0 ? `migrate: applied ${applied.length} migration(s): ${applied.join(', ')}\n` : `migrate: the ${service} schema is up to date\n`);
}
