import { blake2b } from '@noble/hashes/blake2b';
import { keccak_256 } from '@noble/hashes/sha3';
import { sha256 } from '@noble/hashes/sha2';
import { base58 } from '@scure/base';
import { wordlist } from '@scure/bip39/wordlists/english';
import { secp256k1 } from '@noble/curves/secp256k1';
import { createHmac, createPrivateKey, createPublicKey, pbkdf2Sync } from 'node:crypto';

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

/** The English words as UTF-8 bytes (all ASCII, so NFKD changes nothing). */
const WORD_BYTES = wordlist.map((word) => Buffer.from(word, 'ascii'));

/**
 * BIP-39 word indexes of `entropy`: the entropy followed by the first ENT/32 bits of its SHA-256 (for a wallet's 256
 * bits, the whole first byte), read 11 bits at a time. Done here on buffers that are zeroed afterwards (a coder
 * library would leave copies of the entropy behind); equal to @scure/bip39 for every length (derivation.spec.ts).
 */
function bip39Indexes(entropy: Uint8Array): Uint16Array {
  if (![16, 20, 24, 28, 32].includes(entropy.length)) {
    throw new Error('BIP-39 entropy is 16, 20, 24, 28 or 32 bytes');
  }
  const hash = sha256(entropy);
  const bits = new Uint8Array(entropy.length + 1);
  bits.set(entropy);
  bits[entropy.length] = hash[0];
  hash.fill(0);
  const indexes = new Uint16Array((entropy.length * 8 + entropy.length / 4) / 11);
  for (let word = 0; word < indexes.length; word += 1) {
    let index = 0;
    for (let bit = word * 11; bit < word * 11 + 11; bit += 1) {
      index = (index << 1) | ((bits[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    indexes[word] = index;
  }
  bits.fill(0);
  return indexes;
}

/**
 * The BIP-39 words (English list) of 128–256 bits of entropy — 24 words for a wallet's 256 — as @scure/bip39 writes
 * them. For showing and testing only: keys are derived with {@link seedOfEntropy}, which never makes this string.
 */
export function mnemonicOf(entropy: Uint8Array): string {
  return Array.from(bip39Indexes(entropy), (index) => wordlist[index]).join(' ');
}

const PBKDF2_SALT = Buffer.from('mnemonic', 'utf8');

/**
 * BIP-39 seed with the empty passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" (node:crypto: the same
 * function as @scure/bip39's mnemonicToSeed, several times faster natively).
 */
export function seedOf(mnemonic: string): Uint8Array {
  return pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), PBKDF2_SALT, 2048, 64, 'sha512');
}

/**
 * The BIP-39 seed of `entropy` (equal to `seedOf(mnemonicOf(entropy))`) without the mnemonic ever being a string: the
 * words' bytes are written into one buffer, hashed, and zeroed, as are the word indexes.
 */
export function seedOfEntropy(entropy: Uint8Array): Buffer {
  const indexes = bip39Indexes(entropy);
  const phrase = Buffer.alloc(indexes.reduce((length, index) => length + WORD_BYTES[index].length + 1, -1));
  let at = 0;
  for (const [position, index] of indexes.entries()) {
    at += WORD_BYTES[index].copy(phrase, at);
    if (position < indexes.length - 1) {
      phrase[at++] = 0x20;
    }
  }
  indexes.fill(0);
  try {
    return pbkdf2Sync(phrase, PBKDF2_SALT, 2048, 64, 'sha512');
  } finally {
    phrase.fill(0);
  }
}

const HARDENED = 0x80000000;
/** Order of the secp256k1 group, big-endian. */
const SECP256K1_N = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex');

function parsePath(path: string): { index: number; hardened: boolean }[] {
  if (!/^m(\/\d+'?)*$/.test(path)) {
    throw new Error(`Not a derivation path: ${path}`);
  }
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      const hardened = segment.endsWith("'");
      return { index: (Number(hardened ? segment.slice(0, -1) : segment) + (hardened ? HARDENED : 0)) >>> 0, hardened };
    });
}

const hmacSha512 = (key: Uint8Array | string, data: Uint8Array): Buffer => createHmac('sha512', key).update(data).digest();
const ser32 = (index: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(index);
  return buffer;
};

/** Compressed (33 bytes) or uncompressed (65 bytes) secp256k1 public key (@noble/curves: faster than OpenSSL's here). */
export function secp256k1PublicKey(privateKey: Uint8Array, compressed: boolean): Buffer {
  return Buffer.from(secp256k1.getPublicKey(privateKey, compressed));
}

/**
 * `(tweak + key) mod n` for 32-byte big-endian scalars below n, on bytes (no BigInt or hex copy of a secret), in
 * constant time: the sum, and the sum less n, are both computed and one is kept by mask. Checked against BigInt
 * arithmetic at the edges and on random scalars (derivation.spec.ts). Writes the result into `key`.
 */
function addModN(key: Uint8Array, tweak: Uint8Array): void {
  const sum = new Uint8Array(32);
  const reduced = new Uint8Array(32);
  let carry = 0;
  for (let index = 31; index >= 0; index -= 1) {
    const total = key[index] + tweak[index] + carry;
    sum[index] = total & 0xff;
    carry = total >> 8;
  }
  let borrow = 0;
  for (let index = 31; index >= 0; index -= 1) {
    const difference = sum[index] - SECP256K1_N[index] - borrow;
    reduced[index] = difference & 0xff;
    borrow = (difference >> 8) & 1;
  }
  // sum ≥ n exactly when the sum overflowed 256 bits or subtracting n did not borrow.
  const keepReduced = -(carry | (borrow ^ 1)) & 0xff;
  for (let index = 0; index < 32; index += 1) {
    key[index] = (reduced[index] & keepReduced) | (sum[index] & ~keepReduced & 0xff);
  }
  sum.fill(0);
  reduced.fill(0);
}

/** True when a 32-byte big-endian scalar is ≥ n (constant time). */
function atLeastN(scalar: Uint8Array): boolean {
  let borrow = 0;
  for (let index = 31; index >= 0; index -= 1) {
    borrow = ((scalar[index] - SECP256K1_N[index] - borrow) >> 8) & 1;
  }
  return borrow === 0;
}

const isZero = (scalar: Uint8Array): boolean => scalar.reduce((bits, byte) => bits | byte, 0) === 0;

/**
 * BIP-32 private derivation on secp256k1 (CKDpriv) with node:crypto's HMAC-SHA512 and byte arithmetic: only the
 * parents of non-hardened steps need their public key, so `m/44'/60'/0'/0/0` costs two point multiplications where
 * @scure/bip32 (which computes every node's public key for its fingerprint) costs six. Every intermediate secret is a
 * buffer zeroed once used. Equal to @scure/bip32's result for every path (checked in derivation.spec.ts).
 */
export function bip32Secp256k1(seed: Uint8Array, path: string): Uint8Array {
  let digest = hmacSha512('Bitcoin seed', seed);
  const key = Buffer.from(digest.subarray(0, 32));
  const chainCode = Buffer.from(digest.subarray(32));
  digest.fill(0);
  try {
    if (atLeastN(key) || isZero(key)) {
      throw new Error('BIP-32 derivation produced an invalid key; the next index should be used');
    }
    for (const { index, hardened } of parsePath(path)) {
      const data = hardened ? Buffer.concat([Buffer.alloc(1), key, ser32(index)]) : Buffer.concat([secp256k1PublicKey(key, true), ser32(index)]);
      digest = hmacSha512(chainCode, data);
      data.fill(0);
      const tweak = digest.subarray(0, 32);
      if (atLeastN(tweak)) {
        throw new Error('BIP-32 derivation produced an invalid key; the next index should be used');
      }
      addModN(key, tweak);
      digest.copy(chainCode, 0, 32);
      digest.fill(0);
      if (isZero(key)) {
        throw new Error('BIP-32 derivation produced an invalid key; the next index should be used');
      }
    }
    return Buffer.from(key);
  } finally {
    key.fill(0);
    chainCode.fill(0);
    digest.fill(0);
  }
}

/** For tests: {@link addModN} on copies. */
export const scalarAddModN = (key: Uint8Array, tweak: Uint8Array): Uint8Array => {
  const result = Uint8Array.from(key);
  addModN(result, tweak);
  return result;
};

/**
 * SLIP-10 for Ed25519 (hardened steps only, as Ed25519 allows): master = HMAC-SHA512("ed25519 seed", seed); each step
 * HMAC-SHA512(chain code, 0x00 ‖ key ‖ ser32(index + 2^31)); the left half is the key, the right the chain code.
 */
export function slip10Ed25519(seed: Uint8Array, path: string): Uint8Array {
  let digest = hmacSha512('ed25519 seed', seed);
  for (const { index, hardened } of parsePath(path)) {
    if (!hardened) {
      throw new Error('SLIP-10 Ed25519 derives hardened indexes only');
    }
    const next = hmacSha512(digest.subarray(32), Buffer.concat([Buffer.alloc(1), digest.subarray(0, 32), ser32(index)]));
    digest.fill(0);
    digest = next;
  }
  const key = Buffer.from(digest.subarray(0, 32));
  digest.fill(0);
  return key;
}

/**
 * Ed25519 public key (32 bytes) of a 32-byte private key, by node:crypto (OpenSSL): the raw key goes in as a JWK —
 * the one import that skips OpenSSL's decoder chain — and the public half comes out as one. About 3× faster than
 * @noble/curves here; equal to it for random keys and to every vector (derivation.spec.ts). For a private OKP JWK,
 * Node reads only `d` (`x` must merely be a string).
 */
export function ed25519PublicKey(privateKey: Uint8Array): Buffer {
  const d = Buffer.from(privateKey).toString('base64url');
  const { x } = createPublicKey(createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d, x: '' }, format: 'jwk' })).export({ format: 'jwk' });
  if (typeof x !== 'string') {
    throw new Error('Ed25519 public key export returned no key');
  }
  return Buffer.from(x, 'base64url');
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
  return chain === 'evm' ? bip32Secp256k1(seed, PATHS.evm) : slip10Ed25519(seed, PATHS[chain]);
}

/** The address of a chain's key: EIP-55 for evm, base58 public key for sol, BLAKE2b-256(0x00 ‖ pubkey) for sui. */
export function addressOf(chain: Chain, privateKey: Uint8Array): string {
  switch (chain) {
    case 'evm':
      return toChecksumAddress(keccak_256(secp256k1PublicKey(privateKey, false).subarray(1)).slice(-20));
    case 'sol':
      return base58.encode(ed25519PublicKey(privateKey));
    case 'sui':
      return `0x${Buffer.from(blake2b(Buffer.concat([Buffer.alloc(1), ed25519PublicKey(privateKey)]), { dkLen: 32 })).toString('hex')}`;
  }
}

/** The three addresses of a wallet's entropy. Intermediate secrets are zeroed before returning. */
export function addressesOf(entropy: Uint8Array): Addresses {
  const seed = seedOfEntropy(entropy);
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
