import { Env, ServiceConfig, loadServiceConfig } from '@game-wallet/config';

export type IdentityConfig = ServiceConfig;

/** The identity service's configuration, validated once at start. */
export function loadIdentityConfig(env: Env): IdentityConfig {
  return loadServiceConfig(env, { portVariable: 'IDENTITY_PORT', defaultPort: 3101, databaseVariable: 'IDENTITY_DATABASE_URL' });
}
