import { Env, ServiceConfig, loadServiceConfig } from '@game-wallet/config';

export type CoreConfig = ServiceConfig;

/** The core service's configuration, validated once at start. */
export function loadCoreConfig(env: Env): CoreConfig {
  return loadServiceConfig(env, { service: 'core', portVariable: 'CORE_SERVICE_PORT', defaultPort: 3103, databaseVariable: 'CORE_DATABASE_URL' });
}
