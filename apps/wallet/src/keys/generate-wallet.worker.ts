/**
 * Worker-thread task: fresh 256-bit entropy from the CSPRNG and the wallet's three addresses. Runs off the event
 * loop (PBKDF2, elliptic-curve work), so reads and signatures stay fast while wallets are created.
 */
import { randomBytes } from 'node:crypto';
import { Addresses, addressesOf } from './derivation';

export interface GeneratedWallet {
  entropy: Uint8Array;
  addresses: Addresses;
}

export default function generateWallet(): GeneratedWallet {
  const entropy = new Uint8Array(randomBytes(32));
  return { entropy, addresses: addressesOf(entropy) };
}
