/**
 * Worker-thread tasks: the wallet's key work that takes milliseconds (PBKDF2, elliptic-curve arithmetic), off the
 * event loop so that reads, and the rest of each signature, stay fast while wallets are created and used.
 * Secrets cross between threads only by transfer (moved, never copied), and each task zeroes what it derived.
 */
import { randomFillSync } from 'node:crypto';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { Addresses, Chain, addressesOf, chainKey, seedOfEntropy } from './derivation';

export interface GeneratedWallet {
  entropy: Uint8Array;
  addresses: Addresses;
}

/** Fresh 256-bit entropy from the CSPRNG and the wallet's three addresses. */
function newWallet(): GeneratedWallet {
  // Filled in place: no pooled or intermediate copy of the secret.
  const entropy = randomFillSync(new Uint8Array(32));
  return { entropy, addresses: addressesOf(entropy) };
}

/**
 * Task `generateWallets`: `count` new wallets, one after the other. Their entropy moves to the caller (transferred,
 * not copied), so no copy stays in this thread.
 */
export function generateWallets(count: number): GeneratedWallet[] {
  const wallets = Array.from({ length: count }, newWallet);
  return move({
    get [transferableSymbol]() {
      return wallets.map((wallet) => wallet.entropy.buffer);
    },
    get [valueSymbol]() {
      return wallets;
    },
  }) as unknown as GeneratedWallet[];
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
