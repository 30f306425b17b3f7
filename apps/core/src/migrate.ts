/**
 * Applies the core schema's pending migrations and exits: the migration job of a release, for deployments that run
 * services with `MIGRATIONS=job` (k8s/README.md). Safe beside running replicas and when run twice (advisory lock).
 * It reads only NODE_ENV and CORE_DATABASE_URL (or DATABASE_URL):
 *
 *   node dist/apps/core/migrate.js
 */
import 'reflect-metadata';
import { loadMigrationConfig } from '@game-wallet/config';
import { ensureDatabase, migrateSchema } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { coreDataSourceOptions } from './database/data-source-options';

runMain('migrate', async () => {
  const config = loadMigrationConfig(process.env, 'CORE_DATABASE_URL');
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  const { applied } = await migrateSchema(coreDataSourceOptions(config.databaseUrl));
  process.stdout.write(
    applied.length > 0 ? `migrate: applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'migrate: the core schema is up to date\n',
  );
});
