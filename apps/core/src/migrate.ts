/**
 * Applies the core schema's pending migrations and exits: the migration job of a release, for deployments that run
 * services with `MIGRATIONS=job` (k8s/README.md). Safe beside running replicas and when run twice (advisory lock).
 * It reads only NODE_ENV and CORE_DATABASE_URL (or DATABASE_URL):
 *
 *   node dist/apps/core/migrate.js
 */
import 'reflect-metadata';
import { runMigrationJob } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { coreDataSourceOptions } from './database/data-source-options';

runMain('migrate', () => runMigrationJob('core', 'CORE_DATABASE_URL', coreDataSourceOptions));
