import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';

/**
 * A wallet's secret as stored: its 32-byte BIP-39 entropy under a per-wallet data key (AES-256-GCM, AAD = wallet id),
 * the data key wrapped by a master key (AES-256-GCM, AAD = wallet id ‖ "|" ‖ master key id). Neither the entropy nor
 * the data key is ever stored in clear.
 */
export interface SealedSecret {
  entropyCiphertext: Buffer;
  entropyIv: Buffer;
  entropyTag: Buffer;
  dataKeyCiphertext: Buffer;
  dataKeyIv: Buffer;
  dataKeyTag: Buffer;
  masterKeyId: string;
}

export class KeyIntegrityError extends Error {
  constructor(readonly walletId: string) {
    super(`Wallet ${walletId}: key material failed authentication`);
    this.name = 'KeyIntegrityError';
  }
}

const wrapAad = (walletId: string, masterKeyId: string): Buffer => Buffer.from(`${walletId}|${masterKeyId}`);

export function sealEntropy(walletId: string, entropy: Uint8Array, masterKeyId: string, masterKey: Buffer): SealedSecret {
  const dataKey = randomBytes(32);
  try {
    const body = seal(dataKey, Buffer.from(entropy), Buffer.from(walletId));
    const wrapped = seal(masterKey, dataKey, wrapAad(walletId, masterKeyId));
    return {
      entropyCiphertext: body.ciphertext,
      entropyIv: body.iv,
      entropyTag: body.tag,
      dataKeyCiphertext: wrapped.ciphertext,
      dataKeyIv: wrapped.iv,
      dataKeyTag: wrapped.tag,
      masterKeyId,
    };
  } finally {
    dataKey.fill(0);
  }
}

function unwrapDataKey(walletId: string, sealed: SealedSecret, masterKeys: Map<string, Buffer>): Buffer {
  const masterKey = masterKeys.get(sealed.masterKeyId);
  if (!masterKey) {
    throw new Error(`Wallet ${walletId} is wrapped by master key "${sealed.masterKeyId}", which is not configured`);
  }
  return open(masterKey, { ciphertext: sealed.dataKeyCiphertext, iv: sealed.dataKeyIv, tag: sealed.dataKeyTag }, wrapAad(walletId, sealed.masterKeyId));
}

/**
 * Runs `work` with the wallet's unwrapped data key and zeroes the key afterwards; an authentication failure anywhere
 * (wrong wallet, swapped ciphertext, wrong master key) becomes a {@link KeyIntegrityError} naming the wallet.
 */
function withDataKey<T>(walletId: string, sealed: SealedSecret, masterKeys: Map<string, Buffer>, work: (dataKey: Buffer) => T): T {
  let dataKey: Buffer | undefined;
  try {
    dataKey = unwrapDataKey(walletId, sealed, masterKeys);
    return work(dataKey);
  } catch (error) {
    throw error instanceof IntegrityError ? new KeyIntegrityError(walletId) : error;
  } finally {
    dataKey?.fill(0);
  }
}

/** The wallet's entropy; the caller zeroes it after use. A ciphertext that is not this wallet's fails here. */
export function openEntropy(walletId: string, sealed: SealedSecret, masterKeys: Map<string, Buffer>): Buffer {
  return withDataKey(walletId, sealed, masterKeys, (dataKey) =>
    open(dataKey, { ciphertext: sealed.entropyCiphertext, iv: sealed.entropyIv, tag: sealed.entropyTag }, Buffer.from(walletId)),
  );
}

/** The same secret with its data key wrapped by another master key (the entropy ciphertext does not change). */
export function rewrapEntropy(walletId: string, sealed: SealedSecret, masterKeys: Map<string, Buffer>, toId: string): SealedSecret {
  return withDataKey(walletId, sealed, masterKeys, (dataKey) => {
    const wrapped = seal(masterKeys.get(toId) as Buffer, dataKey, wrapAad(walletId, toId));
    return { ...sealed, dataKeyCiphertext: wrapped.ciphertext, dataKeyIv: wrapped.iv, dataKeyTag: wrapped.tag, masterKeyId: toId };
  });
}
