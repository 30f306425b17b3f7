import { Env, ServiceConfig, loadServiceConfig, optionalStringVar } from '@game-wallet/config';

export interface WalletConfig extends ServiceConfig {
  /** id → 32-byte master key; every key that still wraps a wallet must be here. */
  masterKeys: Map<string, Buffer>;
  /** The key new wallets (and `rewrap`) use; undefined only in development (a key is generated). */
  masterKeyId?: string;
}

const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * `WALLET_MASTER_KEYS`: a JSON object `{"id": "<base64 32 bytes>"}` or a list `id=<base64>,id2=<base64>`.
 * Returns the keys, or a message describing what is wrong. The message names entries by position only: a misplaced
 * separator can put key material where an id is expected, so no part of the value is ever repeated.
 */
export function parseMasterKeys(value: string | undefined): Map<string, Buffer> | string {
  const keys = new Map<string, Buffer>();
  if (value === undefined) {
    return keys;
  }
  let entries: [string, unknown][];
  try {
    entries = value.trim().startsWith('{')
      ? Object.entries(JSON.parse(value) as Record<string, unknown>)
      : value.split(',').map((pair) => {
          const at = pair.indexOf('=');
          return at <= 0 ? ['', ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        });
  } catch {
    return 'must be a JSON object {"id": "base64 key"} or id=base64 pairs separated by commas';
  }
  for (const [index, [id, encoded]] of entries.entries()) {
    const position = `entry ${index + 1}`;
    if (!KEY_ID.test(id)) {
      return `${position}: must be id=base64, the id 1-64 letters, digits or _.-`;
    }
    const key = typeof encoded === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) {
      return `${position}: the key must be 32 bytes, base64-encoded`;
    }
    keys.set(id, key);
  }
  return keys;
}

/** The wallet service's configuration, validated once at start. */
export function loadWalletConfig(env: Env): WalletConfig {
  const config = loadServiceConfig(env, {
    portVariable: 'WALLET_PORT',
    defaultPort: 3102,
    databaseVariable: 'WALLET_DATABASE_URL',
    extra: {
      WALLET_MASTER_KEYS: optionalStringVar().superRefine((value, context) => {
        const parsed = parseMasterKeys(value);
        if (typeof parsed === 'string') {
          context.addIssue({ code: 'custom', message: parsed });
        }
      }),
      WALLET_MASTER_KEY_ID: optionalStringVar().refine(
        (value) => value === undefined || (KEY_ID.test(value) && parseMasterKeyIds(env.WALLET_MASTER_KEYS).includes(value)),
        'must name one of the keys in WALLET_MASTER_KEYS',
      ),
    },
    requiredInProduction: ['WALLET_MASTER_KEYS', 'WALLET_MASTER_KEY_ID'],
  });
  const { extra, ...common } = config;
  const masterKeys = parseMasterKeys(extra.WALLET_MASTER_KEYS) as Map<string, Buffer>;
  return { ...common, masterKeys, masterKeyId: extra.WALLET_MASTER_KEY_ID ?? (masterKeys.size === 1 ? [...masterKeys.keys()][0] : undefined) };
}

function parseMasterKeyIds(value: string | undefined): string[] {
  const parsed = parseMasterKeys(value);
  return typeof parsed === 'string' ? [] : [...parsed.keys()];
}
