import { Env, ServiceConfig, loadServiceConfig } from '@game-wallet/config';

export type WalletConfig = ServiceConfig;

/** The wallet service's configuration, validated once at start. */
export function loadWalletConfig(env: Env): WalletConfig {
  return loadServiceConfig(env, { portVariable: 'WALLET_PORT', defaultPort: 3102, databaseVariable: 'WALLET_DATABASE_URL' });
}
