import { Logger, Provider } from '@nestjs/common';
import { loadOrCreateDevSecret } from '@game-wallet/crypto';
import { WalletConfig } from '../config';

export const MASTER_KEYS = Symbol('MASTER_KEYS');

/** The configured master keys and the current one (new wallets, rewrap). */
export interface MasterKeys {
  keys: Map<string, Buffer>;
  currentId: string;
}

export const DEV_MASTER_KEY_ID = 'dev';

/** From configuration; in development without one, a key generated into the data folder, with a warning. */
export function resolveMasterKeys(config: WalletConfig): MasterKeys {
  if (config.masterKeyId && config.masterKeys.has(config.masterKeyId)) {
    return { keys: config.masterKeys, currentId: config.masterKeyId };
  }
  const secret = loadOrCreateDevSecret(config.dataDir, 'wallet-master-key-dev');
  if (secret.created) {
    new Logger('MasterKeys').warn(
      `WALLET_MASTER_KEYS is not set: generated a development master key at ${secret.path}. Production refuses to start without one.`,
    );
  }
  const keys = new Map(config.masterKeys);
  keys.set(DEV_MASTER_KEY_ID, secret.key);
  return { keys, currentId: DEV_MASTER_KEY_ID };
}

export const masterKeysProvider = (config: WalletConfig): Provider => ({ provide: MASTER_KEYS, useFactory: () => resolveMasterKeys(config) });
