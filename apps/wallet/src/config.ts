import { Env, KEY_ID, ServiceConfig, keyringIds, loadServiceConfig, optionalStringVar, parseKeyring, z } from '@game-wallet/config';
import { cpuBudget } from './keys/cpu-budget';

export interface WalletConfig extends ServiceConfig {
  /** id → 32-byte master key; every key that still wraps a wallet must be here. */
  masterKeys: Map<string, Buffer>;
  /** The key new wallets (and `rewrap`) use; undefined only in development (a key is generated). */
  masterKeyId?: string;
  /** Worker threads that generate keys: `WALLET_KEYGEN_THREADS`, else the CPUs the container may use. */
  keygenThreads: number;
}

const MASTER_KEY = { minBytes: 32, exactBytes: true };

/** `WALLET_MASTER_KEYS`: a JSON object `{"id": "<base64 32 bytes>"}` or a list `id=<base64>,id2=<base64>`. */
export function parseMasterKeys(value: string | undefined): Map<string, Buffer> | string {
  return parseKeyring(value, MASTER_KEY);
}

/** The wallet service's configuration, validated once at start. */
export function loadWalletConfig(env: Env): WalletConfig {
  const config = loadServiceConfig(env, {
    portVariable: 'WALLET_PORT',
    defaultPort: 3102,
    databaseVariable: 'WALLET_DATABASE_URL',
    extra: {
      WALLET_KEYGEN_THREADS: z.preprocess(
        (value) => (value === '' ? undefined : value),
        z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number).optional(),
      ),
      WALLET_MASTER_KEYS: optionalStringVar().superRefine((value, context) => {
        const parsed = parseMasterKeys(value);
        if (typeof parsed === 'string') {
          context.addIssue({ code: 'custom', message: parsed });
        }
      }),
      WALLET_MASTER_KEY_ID: optionalStringVar().refine(
        (value) => value === undefined || (KEY_ID.test(value) && keyringIds(env.WALLET_MASTER_KEYS, MASTER_KEY).includes(value)),
        'must name one of the keys in WALLET_MASTER_KEYS',
      ),
    },
    requiredInProduction: ['WALLET_MASTER_KEYS', 'WALLET_MASTER_KEY_ID'],
  });
  const { extra, ...common } = config;
  const masterKeys = parseMasterKeys(extra.WALLET_MASTER_KEYS) as Map<string, Buffer>;
  return {
    ...common,
    masterKeys,
    masterKeyId: extra.WALLET_MASTER_KEY_ID ?? (masterKeys.size === 1 ? [...masterKeys.keys()][0] : undefined),
    keygenThreads: extra.WALLET_KEYGEN_THREADS ?? cpuBudget(),
  };
}
