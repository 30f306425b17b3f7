/**
 * Worker-thread task: fresh 256-bit entropy from the CSPRNG and the wallet's three addresses. Runs off the event
 * loop (PBKDF2, elliptic-curve work), so reads and signatures stay fast while wallets are created.
 */
import { randomFillSync } from 'node:crypto';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { Addresses, addressesOf } from './derivation';

export interface GeneratedWallet {
  entropy: Uint8Array;
  addresses: Addresses;
}

export default function generateWallet(): GeneratedWallet {
  // Filled in place: no pooled or intermediate copy of the secret.
  const entropy = randomFillSync(new Uint8Array(32));
  const addresses = addressesOf(entropy);
  // The entropy's memory moves to the caller (transferred, not copied), so no copy stays in this thread.
  return move({
    get [transferableSymbol]() {
      return [entropy.buffer];
    },
    get [valueSymbol]() {
      return { entropy, addresses };
    },
  }) as unknown as GeneratedWallet;
}
