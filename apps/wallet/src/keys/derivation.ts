import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { blake2b } from '@noble/hashes/blake2b';
import { hmac } from '@noble/hashes/hmac';
import { sha512 } from '@noble/hashes/sha512';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { pbkdf2Sync } from 'node:crypto';

/** SPEC §6 derivation paths: the ones MetaMask, Phantom and Sui Wallet use for the first account. */
export const PATHS = {
  evm: "m/44'/60'/0'/0/0",
  sol: "m/44'/501'/0'/0'",
  sui: "m/44'/784'/0'/0'/0'",
} as const;

export type Chain = keyof typeof PATHS;
export const CHAINS = Object.keys(PATHS) as Chain[];

export interface Addresses {
  evm: string;
  sol: string;
  sui: string;
}

/** The 24 BIP-39 words of 256-bit entropy (English list). */
export function mnemonicOf(entropy: Uint8Array): string {
  return entropyToMnemonic(entropy, wordlist);
}

/**
 * BIP-39 seed with the empty passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" (node:crypto: the same
 * function as @scure/bip39's mnemonicToSeed, several times faster natively).
 */
export function seedOf(mnemonic: string): Uint8Array {
  return pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512');
}

/**
 * SLIP-10 for Ed25519 (hardened steps only, as Ed25519 allows): master = HMAC-SHA512("ed25519 seed", seed); each step
 * HMAC-SHA512(chain code, 0x00 ‖ key ‖ ser32(index + 2^31)); the left half is the key, the right the chain code.
 */
export function slip10Ed25519(seed: Uint8Array, path: string): Uint8Array {
  let digest = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  let key = digest.slice(0, 32);
  let chainCode = digest.slice(32);
  for (const segment of path.split('/').slice(1)) {
    if (!segment.endsWith("'")) {
      throw new Error('SLIP-10 Ed25519 derives hardened indexes only');
    }
    const index = (Number(segment.slice(0, -1)) + 0x80000000) >>> 0;
    const data = new Uint8Array(37);
    data.set(key, 1);
    new DataView(data.buffer).setUint32(33, index, false);
    digest = hmac(sha512, chainCode, data);
    key.fill(0);
    key = digest.slice(0, 32);
    chainCode = digest.slice(32);
  }
  chainCode.fill(0);
  return key;
}

/** EIP-55 mixed-case checksum of a 20-byte address. */
export function toChecksumAddress(address: Uint8Array): string {
  const hex = Buffer.from(address).toString('hex');
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let result = '0x';
  for (let index = 0; index < hex.length; index += 1) {
    result += parseInt(hash[index], 16) >= 8 ? hex[index].toUpperCase() : hex[index];
  }
  return result;
}

/** The private key of each chain for a seed; callers zero them after use. */
export interface ChainKeys {
  evm: Uint8Array;
  sol: Uint8Array;
  sui: Uint8Array;
}

export function chainKey(seed: Uint8Array, chain: Chain): Uint8Array {
  if (chain === 'evm') {
    const node = HDKey.fromMasterSeed(seed).derive(PATHS.evm);
    if (!node.privateKey) {
      throw new Error('BIP-32 derivation gave no private key');
    }
    return node.privateKey;
  }
  return slip10Ed25519(seed, PATHS[chain]);
}

/** The address of a chain's key: EIP-55 for evm, base58 public key for sol, BLAKE2b-256(0x00 ‖ pubkey) for sui. */
export function addressOf(chain: Chain, privateKey: Uint8Array): string {
  switch (chain) {
    case 'evm':
      return toChecksumAddress(keccak_256(secp256k1.getPublicKey(privateKey, false).slice(1)).slice(-20));
    case 'sol':
      return base58.encode(ed25519.getPublicKey(privateKey));
    case 'sui':
      return `0x${Buffer.from(blake2b(Uint8Array.of(0, ...ed25519.getPublicKey(privateKey)), { dkLen: 32 })).toString('hex')}`;
  }
}

/** The three addresses of a wallet's entropy. Intermediate secrets are zeroed before returning. */
export function addressesOf(entropy: Uint8Array): Addresses {
  const seed = seedOf(mnemonicOf(entropy));
  try {
    const addresses = {} as Addresses;
    for (const chain of CHAINS) {
      const key = chainKey(seed, chain);
      addresses[chain] = addressOf(chain, key);
      key.fill(0);
    }
    return addresses;
  } finally {
    seed.fill(0);
  }
}
