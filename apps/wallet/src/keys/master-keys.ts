import { Logger, Provider } from '@nestjs/common';
import { loadOrCreateDevSecret } from '@game-wallet/crypto';
import { DataSource } from 'typeorm';
import { WalletConfig } from '../config';
import { CombinedKeyring, EnvironmentKeyring, MasterKeyring } from './master-keyring';
import { PKCS11_KEY_PREFIX, Pkcs11KeyringOptions, Pkcs11Keyring } from './pkcs11-keyring';

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
 * wallets not yet moved into it. `options` name the token's older keys to check at start (see {@link Pkcs11KeyringOptions}).
 */
export async function resolveMasterKeyring(config: WalletConfig, options: Pkcs11KeyringOptions = {}): Promise<MasterKeyring> {
  if (config.masterKeyProvider === 'env' || !config.pkcs11) {
    return environmentKeyring(config);
  }
  const hsm = await Pkcs11Keyring.open(config.pkcs11, config.masterKeyId as string, options);
  if (config.masterKeys.size === 0) {
    return hsm;
  }
  // The environment's keys only open what is not moved yet: new wallets go to the HSM's key, never to these.
  const [anyEnvironmentKey] = config.masterKeys.keys();
  return new CombinedKeyring([hsm, new EnvironmentKeyring(config.masterKeys, anyEnvironmentKey)]);
}

type Query = (sql: string) => Promise<unknown[]>;

/**
 * Every master key id wallets are under, each once: one index probe per id (a loose scan of `wallets_master_key_idx`),
 * not a pass over every wallet.
 */
export async function masterKeyIdsInUse(query: Query): Promise<string[]> {
  const rows = (await query(`
    WITH RECURSIVE ids(id) AS (
      SELECT min(master_key_id) FROM wallet.wallets
      UNION ALL
      SELECT (SELECT min(master_key_id) FROM wallet.wallets WHERE master_key_id > ids.id) FROM ids WHERE ids.id IS NOT NULL
    )
    SELECT id FROM ids WHERE id IS NOT NULL`)) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * The service's keyring. With an HSM, every token key a stored wallet names is checked at start like the current one
 * (so the service never unwraps with a key it has not checked), read from the (migrated) database.
 */
export const masterKeysProvider = (config: WalletConfig): Provider => ({
  provide: MASTER_KEYS,
  inject: [DataSource],
  useFactory: async (dataSource: DataSource) => {
    if (config.masterKeyProvider === 'env' || !config.pkcs11) {
      return resolveMasterKeyring(config);
    }
    const ids = await masterKeyIdsInUse((sql) => dataSource.query(sql));
    const olderLabels = ids.filter((id) => id.startsWith(PKCS11_KEY_PREFIX)).map((id) => id.slice(PKCS11_KEY_PREFIX.length));
    return resolveMasterKeyring(config, { olderLabels });
  },
});
