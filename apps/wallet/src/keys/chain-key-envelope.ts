import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { Addresses, CHAINS, Chain, addressOf, chainKey, seedOfEntropy } from './derivation';

/**
 * A wallet's chain private keys as stored, so that a signature costs the signature and not a re-derivation (BIP-39
 * PBKDF2 and a BIP-32/SLIP-10 path): each key — evm: the 32-byte secp256k1 scalar; sol and sui: the 32-byte Ed25519
 * seed — sealed under the wallet's own data key (the one that seals its entropy) with AES-256-GCM and a random 96-bit
 * IV, stored as one value `iv (12) ‖ ciphertext (32) ‖ tag (16)` in `sealed_<chain>_key`. The entropy stays the
 * wallet's root; these are derived from it and checked against the wallet's addresses before they are stored.
 *
 * Associated data (owner-bound, like the entropy's version 2): `wallet:v2|chain-key|<chain>|<wallet id>|<game id>|<profile id>`.
 * A sealed key moved to another wallet, owner or chain (a swapped row or column) does not open. Only a writer holding
 * the data key could seal a key that opens here yet is not the wallet's: that is what the address check is for.
 *
 * This file is loaded by the key worker too: it imports nothing beyond the AES-GCM helpers and the derivation.
 */
export const SEALED_CHAIN_KEY_BYTES = 60;
const IV = 12;
const TAG = 16;

/** Whose key it is: the same owner the entropy's envelope binds (wallet id, game, profile). */
export interface ChainKeyOwner {
  id: string;
  applicationId: string;
  profileId: string;
}

export type SealedChainKeys = Record<Chain, Buffer>;

/** A sealed chain key that opens but is not the key of the wallet's stored address (never used, never stored). */
export class ChainKeyMismatchError extends Error {
  constructor(
    readonly walletId: string,
    readonly chain: Chain,
  ) {
    super(`Wallet ${walletId}: the ${chain} key does not match the wallet's ${chain} address`);
    this.name = 'ChainKeyMismatchError';
  }
}

export function chainKeyAad(owner: ChainKeyOwner, chain: Chain): Buffer {
  return Buffer.from(`wallet:v2|chain-key|${chain}|${owner.id}|${owner.applicationId}|${owner.profileId}`);
}

/** `key` sealed under `dataKey` for `owner` and `chain`, packed as stored. */
export function sealChainKey(dataKey: Buffer, owner: ChainKeyOwner, chain: Chain, key: Uint8Array): Buffer {
  const plain = Buffer.from(key); // a copy, zeroed below
  try {
    const { iv, ciphertext, tag } = seal(dataKey, plain, chainKeyAad(owner, chain));
    return Buffer.concat([iv, ciphertext, tag]);
  } finally {
    plain.fill(0);
  }
}

/** The chain key in `packed`; the caller zeroes it. Throws `IntegrityError` when it does not authenticate for this owner and chain. */
export function openChainKey(dataKey: Buffer, owner: ChainKeyOwner, chain: Chain, packed: Buffer): Buffer {
  if (packed.length !== SEALED_CHAIN_KEY_BYTES) {
    throw new IntegrityError();
  }
  return open(dataKey, { iv: packed.subarray(0, IV), ciphertext: packed.subarray(IV, packed.length - TAG), tag: packed.subarray(packed.length - TAG) }, chainKeyAad(owner, chain));
}

/**
 * The wallet's three chain keys derived from its entropy, sealed under `dataKey`, each opened again and its address
 * re-derived from what opened: the addresses, and the sealed keys only if every one matches — the addresses derived
 * here and, when given (`expected`, the stored ones, for a backfill), those too. Fails closed with
 * {@link ChainKeyMismatchError} otherwise. The seed, every key and every opened copy are zeroed; `entropy` and
 * `dataKey` are left to the caller.
 */
export function sealChainKeysOfEntropy(entropy: Uint8Array, dataKey: Buffer, owner: ChainKeyOwner, expected?: Addresses): { addresses: Addresses; sealed: SealedChainKeys } {
  const seed = seedOfEntropy(entropy);
  try {
    const addresses = {} as Addresses;
    const sealed = {} as SealedChainKeys;
    for (const chain of CHAINS) {
      const key = chainKey(seed, chain);
      try {
        addresses[chain] = addressOf(chain, key);
        sealed[chain] = sealChainKey(dataKey, owner, chain, key);
      } finally {
        key.fill(0);
      }
      const opened = openChainKey(dataKey, owner, chain, sealed[chain]);
      try {
        const address = addressOf(chain, opened);
        if (address !== addresses[chain] || (expected !== undefined && address !== expected[chain])) {
          throw new ChainKeyMismatchError(owner.id, chain);
        }
      } finally {
        opened.fill(0);
      }
    }
    return { addresses, sealed };
  } finally {
    seed.fill(0);
  }
}
