import { Env, ServiceConfig, ServiceConfigSpec, loadServiceConfig, serviceEnvShape } from '@game-wallet/config';

export type CoreConfig = ServiceConfig;

const spec: ServiceConfigSpec = { service: 'core', portVariable: 'CORE_SERVICE_PORT', defaultPort: 3103, databaseVariable: 'CORE_DATABASE_URL' };

/** Every variable the core service reads; `docs/configuration.md` is generated from it. */
export const coreEnvShape = serviceEnvShape(spec);

/** The core service's configuration, validated once at start. */
export function loadCoreConfig(env: Env): CoreConfig {
  return loadServiceConfig(env, spec);
}
