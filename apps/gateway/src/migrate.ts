/**
 * Applies the gateway schema's pending migrations and exits: the migration job of a release, for deployments that run
 * the gateway with `MIGRATIONS=job` (k8s/README.md). Safe beside running replicas and when run twice (advisory lock).
 * It reads only NODE_ENV and GATEWAY_DATABASE_URL (or DATABASE_URL):
 *
 *   node dist/apps/gateway/migrate.js
 */
import 'reflect-metadata';
import { runMigrationJob } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { gatewayDataSourceOptions } from './database/data-source-options';

runMain('migrate', () => runMigrationJob('gateway', 'GATEWAY_DATABASE_URL', gatewayDataSourceOptions));
