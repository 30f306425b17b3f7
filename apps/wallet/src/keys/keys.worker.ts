/**
 * Worker-thread tasks: the wallet's key work that takes milliseconds (PBKDF2, elliptic-curve arithmetic), off the
 * event loop so that reads, and the rest of each signature, stay fast while wallets are created and used.
 * Secrets cross between threads only by transfer (moved, never copied), and each task zeroes what it derived.
 */
import { randomFillSync } from 'node:crypto';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { SIGNATURE_PRIMITIVES } from '../chains/signature-primitives';
import { ChainKeyOwner, SealedChainKeys, sealChainKeysOfEntropy } from './chain-key-envelope';
import { Addresses, Chain, chainKey, seedOfEntropy } from './derivation';

export interface GeneratedWallet {
  entropy: Uint8Array;
  /** the wallet's new data key: it seals the chain keys here, and the entropy and its wrap on the caller's side */
  dataKey: Uint8Array;
  addresses: Addresses;
  /** the three chain keys under the data key, each checked to open to its address (see chain-key-envelope.ts) */
  sealedChainKeys: SealedChainKeys;
}

/** Fresh 256-bit entropy and data key from the CSPRNG, the wallet's three addresses and its sealed chain keys. */
function newWallet(owner: ChainKeyOwner): GeneratedWallet {
  // Filled in place: no pooled or intermediate copy of the secrets.
  const entropy = randomFillSync(new Uint8Array(32));
  const dataKey = randomFillSync(new Uint8Array(32));
  try {
    const { addresses, sealed } = sealChainKeysOfEntropy(entropy, Buffer.from(dataKey.buffer, dataKey.byteOffset, dataKey.length), owner);
    return { entropy, dataKey, addresses, sealedChainKeys: sealed };
  } catch (error) {
    entropy.fill(0);
    dataKey.fill(0);
    throw error;
  }
}

/**
 * Task `generateWallets`: a new wallet for each owner (its id included), one after the other. Their entropy and data
 * key move to the caller (transferred, not copied), so no copy stays in this thread; if one fails, those made before
 * it are zeroed.
 */
export function generateWallets(owners: ChainKeyOwner[]): GeneratedWallet[] {
  const wallets: GeneratedWallet[] = [];
  try {
    for (const owner of owners) {
      wallets.push(newWallet(owner));
    }
  } catch (error) {
    wallets.forEach((wallet) => {
      wallet.entropy.fill(0);
      wallet.dataKey.fill(0);
    });
    throw error;
  }
  return move({
    get [transferableSymbol]() {
      return wallets.flatMap((wallet) => [wallet.entropy.buffer, wallet.dataKey.buffer]);
    },
    get [valueSymbol]() {
      return wallets;
    },
  }) as unknown as GeneratedWallet[];
}

export interface SignTask {
  /** the chain key, in an ArrayBuffer of its own (transferred here); zeroed once used */
  key: Uint8Array;
  chain: Chain;
  payload: Uint8Array;
}

/**
 * Task `signWithKeys`: each task's chain signature (see chains/signature-primitives.ts), for a chain whose signing is
 * placed on the worker pool (signatures/signing-placement.ts). Every key is zeroed, whatever happens.
 */
export function signWithKeys(tasks: SignTask[]): Uint8Array[] {
  try {
    return tasks.map(({ key, chain, payload }) => SIGNATURE_PRIMITIVES[chain](key, payload));
  } finally {
    tasks.forEach((task) => task.key.fill(0));
  }
}

export interface ChainKeyTask {
  /** the wallet's entropy, in an ArrayBuffer of its own (transferred here); zeroed once used */
  entropy: Uint8Array;
  chain: Chain;
}

/**
 * A chain's private key of a wallet's entropy, in a buffer of its own (the derived one may be a slice of a shared
 * pool, which must not be transferred); the entropy and every intermediate secret are zeroed.
 */
export function chainKeyOfEntropy({ entropy, chain }: ChainKeyTask): Uint8Array {
  const seed = seedOfEntropy(entropy);
  entropy.fill(0);
  let derived: Uint8Array;
  try {
    derived = chainKey(seed, chain);
  } finally {
    seed.fill(0);
  }
  const key = new Uint8Array(derived.length);
  key.set(derived);
  derived.fill(0);
  return key;
}

/**
 * Task `deriveChainKeys`: the key of each task, in order. The keys move to the caller (transferred, not copied), who
 * zeroes each once used; if one cannot be derived, those derived before it and every entropy left are zeroed first.
 */
export function deriveChainKeys(tasks: ChainKeyTask[]): Uint8Array[] {
  const keys: Uint8Array[] = [];
  try {
    for (const task of tasks) {
      keys.push(chainKeyOfEntropy(task));
    }
  } catch (error) {
    keys.forEach((key) => key.fill(0));
    tasks.forEach((task) => task.entropy.fill(0));
    throw error;
  }
  return move({
    get [transferableSymbol]() {
      return keys.map((key) => key.buffer);
    },
    get [valueSymbol]() {
      return keys;
    },
  }) as unknown as Uint8Array[];
}
