/**
 * Applies the wallet schema's pending migrations and exits: the migration job of a release, for deployments that run
 * services with `MIGRATIONS=job` (k8s/README.md). Safe beside running replicas and when run twice (advisory lock).
 * It reads only NODE_ENV and WALLET_DATABASE_URL (or DATABASE_URL):
 *
 *   node dist/apps/wallet/migrate.js
 */
import 'reflect-metadata';
import { runMigrationJob } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { walletDataSourceOptions } from './database/data-source-options';

runMain('migrate', () => runMigrationJob('wallet', 'WALLET_DATABASE_URL', walletDataSourceOptions));
