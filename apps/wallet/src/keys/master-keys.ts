import { Logger, Provider } from '@nestjs/common';
import { loadOrCreateDevSecret } from '@game-wallet/crypto';
import { WalletConfig } from '../config';
import { CombinedKeyring, EnvironmentKeyring, MasterKeyring } from './master-keyring';
import { Pkcs11Keyring } from './pkcs11-keyring';

export const MASTER_KEYS = Symbol('MASTER_KEYS');

export const DEV_MASTER_KEY_ID = 'dev';

/** From `WALLET_MASTER_KEYS`; in development without one, a key generated into the data folder, with a warning. */
export function environmentKeyring(config: WalletConfig): EnvironmentKeyring {
  if (config.masterKeyId && config.masterKeys.has(config.masterKeyId)) {
    return new EnvironmentKeyring(config.masterKeys, config.masterKeyId);
  }
  const secret = loadOrCreateDevSecret(config.dataDir, 'wallet-master-key-dev');
  if (secret.created) {
    new Logger('MasterKeys').warn(
      `WALLET_MASTER_KEYS is not set: generated a development master key at ${secret.path}. Production refuses to start without one.`,
    );
  }
  const keys = new Map(config.masterKeys);
  keys.set(DEV_MASTER_KEY_ID, secret.key);
  return new EnvironmentKeyring(keys, DEV_MASTER_KEY_ID);
}

/**
 * The wallet service's master keys, by `WALLET_MASTER_KEY_PROVIDER`: the environment's (`env`), or the HSM's
 * (`pkcs11`, new wallets under `WALLET_MASTER_KEY_ID`) together with any `WALLET_MASTER_KEYS` still configured for
 * wallets not yet moved into it.
 */
export async function resolveMasterKeyring(config: WalletConfig): Promise<MasterKeyring> {
  if (config.masterKeyProvider === 'env' || !config.pkcs11) {
    return environmentKeyring(config);
  }
  const hsm = await Pkcs11Keyring.open(config.pkcs11, config.masterKeyId as string);
  if (config.masterKeys.size === 0) {
    return hsm;
  }
  // The environment's keys only open what is not moved yet: new wallets go to the HSM's key, never to these.
  const [anyEnvironmentKey] = config.masterKeys.keys();
  return new CombinedKeyring([hsm, new EnvironmentKeyring(config.masterKeys, anyEnvironmentKey)]);
}

export const masterKeysProvider = (config: WalletConfig): Provider => ({ provide: MASTER_KEYS, useFactory: () => resolveMasterKeyring(config) });
