import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import { ChainKeyMismatchError, SealedChainKeys, openChainKey, sealChainKeysOfEntropy } from './chain-key-envelope';
import { Addresses, Chain } from './derivation';
import { MasterKeyring } from './master-keyring';

/**
 * A wallet's secret as stored: its 32-byte BIP-39 entropy under a per-wallet data key (AES-256-GCM), the data key
 * wrapped by a master key (AES-256-GCM, in process memory or inside an HSM: see {@link MasterKeyring}). Neither the
 * entropy nor the data key is ever stored in clear.
 *
 * Associated data (`aadVersion`):
 * - 2 (every wallet made or rewrapped now): the entropy is bound to `wallet:v2|<wallet id>|<game id>|<profile id>`,
 *   the data key to the same plus `|<master key id>`. A database writer can neither move a ciphertext to another row
 *   nor a row to another owner (game or profile): the secret then fails to open.
 * - 1 (older rows, until `npm run rewrap`): the entropy to the wallet id, the data key to `<wallet id>|<master key id>`.
 *   Opened only when asked for (`acceptVersion1`): the service does so until rewrap retires version 1
 *   (keys/owner-binding.ts).
 */
export interface SealedSecret {
  entropyCiphertext: Buffer;
  entropyIv: Buffer;
  entropyTag: Buffer;
  dataKeyCiphertext: Buffer;
  dataKeyIv: Buffer;
  dataKeyTag: Buffer;
  masterKeyId: string;
  aadVersion: number;
}

/** Whose secret it is: what the associated data binds it to. */
export interface WalletOwner {
  id: string;
  applicationId: string;
  profileId: string;
}

export const CURRENT_AAD_VERSION = 2;

export class KeyIntegrityError extends Error {
  constructor(readonly walletId: string) {
    super(`Wallet ${walletId}: key material failed authentication`);
    this.name = 'KeyIntegrityError';
  }
}

function entropyAad(owner: WalletOwner, version: number): Buffer {
  return Buffer.from(version === 1 ? owner.id : `wallet:v2|${owner.id}|${owner.applicationId}|${owner.profileId}`);
}

function wrapAad(owner: WalletOwner, masterKeyId: string, version: number): Buffer {
  return Buffer.from(version === 1 ? `${owner.id}|${masterKeyId}` : `wallet:v2|${owner.id}|${owner.applicationId}|${owner.profileId}|${masterKeyId}`);
}

async function sealWith(owner: WalletOwner, entropy: Uint8Array, dataKey: Buffer, keyring: MasterKeyring, masterKeyId: string): Promise<SealedSecret> {
  const plain = Buffer.from(entropy); // a copy, zeroed below like every other secret buffer
  let body;
  try {
    body = seal(dataKey, plain, entropyAad(owner, CURRENT_AAD_VERSION));
  } finally {
    plain.fill(0);
  }
  const wrapped = await keyring.wrap(masterKeyId, dataKey, wrapAad(owner, masterKeyId, CURRENT_AAD_VERSION));
  return {
    entropyCiphertext: body.ciphertext,
    entropyIv: body.iv,
    entropyTag: body.tag,
    dataKeyCiphertext: wrapped.ciphertext,
    dataKeyIv: wrapped.iv,
    dataKeyTag: wrapped.tag,
    masterKeyId,
    aadVersion: CURRENT_AAD_VERSION,
  };
}

/**
 * A new wallet's secret: a data key seals the entropy and is wrapped by the keyring's current master key. The data
 * key is a fresh one, or the one the key worker made the wallet's sealed chain keys with (`dataKey`, zeroed here).
 */
export async function sealEntropy(owner: WalletOwner, entropy: Uint8Array, keyring: MasterKeyring, fromWorker?: Uint8Array): Promise<SealedSecret> {
  const dataKey = fromWorker === undefined ? randomBytes(32) : Buffer.from(fromWorker.buffer, fromWorker.byteOffset, fromWorker.length);
  try {
    return await sealWith(owner, entropy, dataKey, keyring, keyring.currentId);
  } finally {
    dataKey.fill(0);
  }
}

/**
 * Runs `work` with the wallet's unwrapped data key and zeroes the key afterwards; an authentication failure anywhere
 * (wrong wallet or owner, swapped ciphertext, wrong master key) becomes a {@link KeyIntegrityError} naming the wallet.
 */
async function withDataKey<T>(owner: WalletOwner, sealed: SealedSecret, keyring: MasterKeyring, work: (dataKey: Buffer) => T | Promise<T>): Promise<T> {
  let dataKey: Buffer | undefined;
  try {
    dataKey = await keyring.unwrap(
      sealed.masterKeyId,
      { ciphertext: sealed.dataKeyCiphertext, iv: sealed.dataKeyIv, tag: sealed.dataKeyTag },
      wrapAad(owner, sealed.masterKeyId, sealed.aadVersion),
    );
    return await work(dataKey);
  } catch (error) {
    throw error instanceof IntegrityError ? new KeyIntegrityError(owner.id) : error;
  } finally {
    dataKey?.fill(0);
  }
}

function openWith(owner: WalletOwner, sealed: SealedSecret, dataKey: Buffer): Buffer {
  return open(dataKey, { ciphertext: sealed.entropyCiphertext, iv: sealed.entropyIv, tag: sealed.entropyTag }, entropyAad(owner, sealed.aadVersion));
}

/**
 * The wallet's entropy; the caller zeroes it after use. A ciphertext that is not this owner's wallet's fails here, and
 * so does a version-1 one unless `acceptVersion1`.
 */
export function openEntropy(owner: WalletOwner, sealed: SealedSecret, keyring: MasterKeyring, { acceptVersion1 = false } = {}): Promise<Buffer> {
  if (sealed.aadVersion < CURRENT_AAD_VERSION && !acceptVersion1) {
    return Promise.reject(new KeyIntegrityError(owner.id));
  }
  return withDataKey(owner, sealed, keyring, (dataKey) => openWith(owner, sealed, dataKey));
}

/**
 * The same secret with its data key wrapped by master key `toId` (another environment key, or a key in the HSM), bound
 * to its owner (version 2). A version-1 secret has its entropy sealed again under the same data key with the new
 * associated data; a version-2 one keeps its entropy ciphertext.
 */
export function rewrapEntropy(owner: WalletOwner, sealed: SealedSecret, keyring: MasterKeyring, toId = keyring.currentId): Promise<SealedSecret> {
  return withDataKey(owner, sealed, keyring, async (dataKey) => {
    if (sealed.aadVersion === CURRENT_AAD_VERSION) {
      const wrapped = await keyring.wrap(toId, dataKey, wrapAad(owner, toId, CURRENT_AAD_VERSION));
      return { ...sealed, dataKeyCiphertext: wrapped.ciphertext, dataKeyIv: wrapped.iv, dataKeyTag: wrapped.tag, masterKeyId: toId };
    }
    const entropy = openWith(owner, sealed, dataKey);
    try {
      return await sealWith(owner, entropy, dataKey, keyring, toId);
    } finally {
      entropy.fill(0);
    }
  });
}

/**
 * The wallet's private key for `chain`, opened from its sealed chain key (see chain-key-envelope.ts) under its data
 * key; the caller zeroes it, and checks it against the wallet's address. The data key is zeroed before this returns.
 * A sealed key that does not authenticate for this wallet, owner and chain is a {@link KeyIntegrityError}, as is a
 * version-1 data-key wrap unless `acceptVersion1`.
 */
export function openSealedChainKey(
  owner: WalletOwner,
  sealed: SealedSecret,
  chain: Chain,
  packed: Buffer,
  keyring: MasterKeyring,
  { acceptVersion1 = false } = {},
): Promise<Buffer> {
  if (sealed.aadVersion < CURRENT_AAD_VERSION && !acceptVersion1) {
    return Promise.reject(new KeyIntegrityError(owner.id));
  }
  return withDataKey(owner, sealed, keyring, (dataKey) => openChainKey(dataKey, owner, chain, packed));
}

/**
 * An existing wallet's three chain keys sealed under its data key (the backfill): the entropy opened, the keys derived,
 * sealed, opened again and matched to the stored `addresses`, or {@link ChainKeyMismatchError} and nothing to store.
 * Only owner-bound (version 2) secrets: older ones are rewrapped first. Every secret is zeroed.
 */
export function sealChainKeysOf(owner: WalletOwner, sealed: SealedSecret, keyring: MasterKeyring, addresses: Addresses): Promise<SealedChainKeys> {
  if (sealed.aadVersion < CURRENT_AAD_VERSION) {
    return Promise.reject(new KeyIntegrityError(owner.id));
  }
  return withDataKey(owner, sealed, keyring, (dataKey) => {
    const entropy = openWith(owner, sealed, dataKey);
    try {
      return sealChainKeysOfEntropy(entropy, dataKey, owner, addresses).sealed;
    } finally {
      entropy.fill(0);
    }
  });
}

export { ChainKeyMismatchError };
