import {
  Env,
  KEY_ID,
  ServiceConfig,
  ServiceConfigSpec,
  envDocs,
  enumVar,
  keyringIds,
  loadServiceConfig,
  optionalStringVar,
  parseKeyring,
  requireInProduction,
  serviceEnvShape,
  z,
} from '@game-wallet/config';
import { cpuBudget } from './keys/cpu-budget';

export const MASTER_KEY_PROVIDERS = ['env', 'pkcs11'] as const;
export type MasterKeyProvider = (typeof MASTER_KEY_PROVIDERS)[number];
/** How the wallet calls its PKCS#11 token: on libuv's threads (`async`), or on the event loop (`sync`). */
export const PKCS11_CALL_MODES = ['async', 'sync'] as const;
export type Pkcs11CallMode = (typeof PKCS11_CALL_MODES)[number];

/** Where the HSM's master keys live (`WALLET_MASTER_KEY_PROVIDER=pkcs11`). */
export interface Pkcs11Config {
  /** Path of the PKCS#11 module (`.so`) */
  module: string;
  tokenLabel: string;
  /** The user PIN: a secret, never logged or echoed. */
  pin: string;
  /** `PKCS11_CALLS`: the wrap and unwrap calls on libuv's threads (`async`, the default) or on the event loop. */
  calls?: Pkcs11CallMode;
}

export interface WalletConfig extends ServiceConfig {
  /** `env`: master keys from `WALLET_MASTER_KEYS`; `pkcs11`: AES keys inside an HSM, used there and never read out. */
  masterKeyProvider: MasterKeyProvider;
  /**
   * id → 32-byte master key from the environment. With `env`, every key that still wraps a wallet must be here; with
   * `pkcs11`, these keys only open wallets not yet moved into the HSM (`npm run rewrap`).
   */
  masterKeys: Map<string, Buffer>;
  /**
   * The key new wallets (and `rewrap`) use: an id in `WALLET_MASTER_KEYS`, or with `pkcs11` the label of the token's
   * AES key. Undefined only in development with `env` (a key is generated).
   */
  masterKeyId?: string;
  pkcs11?: Pkcs11Config;
  /** Worker threads that generate keys and derive signing keys: `WALLET_KEYGEN_THREADS`, else the container's CPUs. */
  keygenThreads: number;
}

const MASTER_KEY = { minBytes: 32, exactBytes: true };
const PKCS11_VARIABLES = ['PKCS11_MODULE', 'PKCS11_TOKEN_LABEL', 'PKCS11_PIN', 'WALLET_MASTER_KEY_ID'];

/** `WALLET_MASTER_KEYS`: a JSON object `{"id": "<base64 32 bytes>"}` or a list `id=<base64>,id2=<base64>`. */
export function parseMasterKeys(value: string | undefined): Map<string, Buffer> | string {
  return parseKeyring(value, MASTER_KEY);
}

const isBlank = (value: string | undefined): boolean => value === undefined || value.trim() === '';

/**
 * With `env` the current key must be one of `WALLET_MASTER_KEYS` (both required in production); with `pkcs11` the
 * module, the token, the PIN and the key's label are required everywhere (there is no development fallback for a token).
 */
function checkMasterKeySource(env: Env, context: z.RefinementCtx): void {
  if (env.WALLET_MASTER_KEY_PROVIDER?.trim() === 'pkcs11') {
    for (const name of PKCS11_VARIABLES.filter((variable) => isBlank(env[variable]))) {
      context.addIssue({ code: 'custom', path: [name], message: 'must be set when WALLET_MASTER_KEY_PROVIDER=pkcs11' });
    }
    if (!isBlank(env.WALLET_MASTER_KEY_ID) && !KEY_ID.test(env.WALLET_MASTER_KEY_ID as string)) {
      context.addIssue({ code: 'custom', path: ['WALLET_MASTER_KEY_ID'], message: 'must be a key label of 1–64 letters, digits, ".", "_" or "-"' });
    }
    return;
  }
  requireInProduction(env, ['WALLET_MASTER_KEYS'], context);
  if (!isBlank(env.WALLET_MASTER_KEY_ID) && !keyringIds(env.WALLET_MASTER_KEYS, MASTER_KEY).includes(env.WALLET_MASTER_KEY_ID as string)) {
    context.addIssue({ code: 'custom', path: ['WALLET_MASTER_KEY_ID'], message: 'must name one of the keys in WALLET_MASTER_KEYS' });
  }
}

/** The wallet service's own variables. */
const walletVariables = {
  WALLET_KEYGEN_THREADS: z
    .preprocess((value) => (value === '' ? undefined : value), z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number).optional())
    .register(envDocs, {
      description:
        "Worker threads that generate new wallets' keys and derive the keys signatures are made with: a positive whole " +
        'number. Creation and signing throughput scale with it.',
      default: 'the CPUs the container may use (its cgroup CPU limit, rounded up; else the cores)',
    }),
  WALLET_MASTER_KEY_PROVIDER: enumVar(MASTER_KEY_PROVIDERS, 'env').register(envDocs, {
    description:
      "Where the master keys that wrap every wallet's keys are: `env`, in `WALLET_MASTER_KEYS` (held in memory), or " +
      '`pkcs11`, AES-256 keys inside a hardware security module, used there and never read out.',
  }),
  WALLET_MASTER_KEYS: optionalStringVar()
    .superRefine((value, context) => {
      const parsed = parseMasterKeys(value);
      if (typeof parsed === 'string') {
        context.addIssue({ code: 'custom', message: parsed });
      }
    })
    .register(envDocs, {
      description:
        'The master keys (AES-256), every key still wrapping a wallet: `{"k1":"<base64>"}` or `k1=<base64>,k2=<base64>`, ' +
        'each key exactly 32 bytes, base64, each id 1–64 letters, digits or `_.-`. With `pkcs11` they only open the ' +
        'wallets not moved into the HSM yet: needed only while wallets are being moved (`npm run rewrap`).',
      required: { production: true, when: 'with `env`' },
      default: 'a `dev` key generated into `DATA_DIR`',
      secret: true,
    }),
  WALLET_MASTER_KEY_ID: optionalStringVar().register(envDocs, {
    description:
      'The master key new wallets (and `npm run rewrap`) use: an id in `WALLET_MASTER_KEYS`, or with `pkcs11` the label ' +
      "of the token's AES key (1–64 letters, digits or `_.-`).",
    required: { production: true, when: 'and everywhere with `pkcs11`' },
    default: 'the only key of `WALLET_MASTER_KEYS`, or `dev`',
  }),
  PKCS11_MODULE: optionalStringVar().register(envDocs, {
    description: "Path of the HSM vendor's PKCS#11 library (a `.so` file) the wallet loads, with `pkcs11`.",
    required: { when: 'with `pkcs11`' },
  }),
  PKCS11_TOKEN_LABEL: optionalStringVar().register(envDocs, {
    description: 'Label of the PKCS#11 token (slot) that holds the master keys, with `pkcs11`.',
    required: { when: 'with `pkcs11`' },
  }),
  PKCS11_PIN: optionalStringVar().register(envDocs, {
    description: "The token's user PIN, with `pkcs11`.",
    required: { when: 'with `pkcs11`' },
    secret: true,
  }),
  PKCS11_CALLS: enumVar(PKCS11_CALL_MODES, 'async').register(envDocs, {
    description:
      'How the wallet calls the token to wrap and unwrap data keys, with `pkcs11`: `async` runs each call on one of ' +
      "libuv's threads, so a slow or stalled HSM (a network one) never holds the event loop, and a call that does not " +
      'answer within 5 s fails; `sync` calls on the event loop, for a token in the process or on the machine whose calls ' +
      'take microseconds (SoftHSM2, a PCIe card): about 40 µs of CPU less per signature, but a stalled call stalls the ' +
      'wallet and cannot be timed out. Never `sync` for a network HSM.',
  }),
};

const spec: ServiceConfigSpec<typeof walletVariables> = {
  service: 'wallet',
  portVariable: 'WALLET_PORT',
  defaultPort: 3102,
  databaseVariable: 'WALLET_DATABASE_URL',
  extra: walletVariables,
  requiredInProduction: ['WALLET_MASTER_KEY_ID'],
  refine: checkMasterKeySource,
};

/** Every variable the wallet service reads; `docs/configuration.md` is generated from it. */
export const walletEnvShape = serviceEnvShape(spec);

/** The wallet service's configuration, validated once at start. */
export function loadWalletConfig(env: Env): WalletConfig {
  const config = loadServiceConfig(env, spec);
  const { extra, ...common } = config;
  const masterKeys = parseMasterKeys(extra.WALLET_MASTER_KEYS) as Map<string, Buffer>;
  const provider = extra.WALLET_MASTER_KEY_PROVIDER;
  return {
    ...common,
    masterKeyProvider: provider,
    masterKeys,
    masterKeyId: extra.WALLET_MASTER_KEY_ID ?? (provider === 'env' && masterKeys.size === 1 ? [...masterKeys.keys()][0] : undefined),
    pkcs11:
      provider === 'pkcs11'
        ? { module: extra.PKCS11_MODULE as string, tokenLabel: extra.PKCS11_TOKEN_LABEL as string, pin: extra.PKCS11_PIN as string, calls: extra.PKCS11_CALLS }
        : undefined,
    keygenThreads: extra.WALLET_KEYGEN_THREADS ?? cpuBudget(),
  };
}
