import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { blake2b } from '@noble/hashes/blake2b';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58 } from '@scure/base';
import { Chain } from './derivation';

/**
 * EIP-191 `personal_sign`: keccak256("\x19Ethereum Signed Message:\n" + length + message), secp256k1 with low s,
 * serialized r ‖ s ‖ v with v ∈ {27, 28}, as `0x` + 130 hex (ethers/viem `verifyMessage` accept it).
 */
export function signEvm(privateKey: Uint8Array, message: Uint8Array): string {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  return evmSignatureHex(signEvmDigest(privateKey, keccak_256(Uint8Array.of(...prefix, ...message))));
}

/** A secp256k1 signature of a 32-byte digest, low s (EIP-2), with the recovery bit Ethereum's `v` is made of. */
export function signEvmDigest(privateKey: Uint8Array, digest: Uint8Array): { r: Uint8Array; s: Uint8Array; recovery: number } {
  const signature = secp256k1.sign(digest, privateKey, { lowS: true });
  const compact = signature.toCompactRawBytes();
  return { r: compact.slice(0, 32), s: compact.slice(32), recovery: signature.recovery };
}

/** `0x` + r ‖ s ‖ v with v ∈ {27, 28}: 130 hex digits, as `personal_sign` and `eth_signTypedData_v4` answer. */
export function evmSignatureHex({ r, s, recovery }: { r: Uint8Array; s: Uint8Array; recovery: number }): string {
  return `0x${Buffer.from(r).toString('hex')}${Buffer.from(s).toString('hex')}${(27 + recovery).toString(16)}`;
}

/** Ed25519 over the raw message bytes, base58 (Solana's form; `nacl.sign.detached.verify` accepts it). */
export function signSol(privateKey: Uint8Array, message: Uint8Array): string {
  return base58.encode(ed25519.sign(message, privateKey));
}

/** BCS `vector<u8>`: ULEB128 length, then the bytes. */
function bcsBytes(message: Uint8Array): Uint8Array {
  const length: number[] = [];
  let remaining = message.length;
  do {
    let byte = remaining & 0x7f;
    remaining >>>= 7;
    if (remaining > 0) {
      byte |= 0x80;
    }
    length.push(byte);
  } while (remaining > 0);
  return Uint8Array.of(...length, ...message);
}

/**
 * Sui personal message: Ed25519 over BLAKE2b-256(intent [3, 0, 0] ‖ BCS vector<u8> message), serialized as
 * base64(0x00 flag ‖ signature ‖ public key) (`@mysten/sui` `verifyPersonalMessageSignature` accepts it).
 */
export function signSui(privateKey: Uint8Array, message: Uint8Array): string {
  return suiSignatureOf(privateKey, blake2b(Uint8Array.of(3, 0, 0, ...bcsBytes(message)), { dkLen: 32 }));
}

/** Sui's serialized Ed25519 signature of an intent digest: base64(0x00 flag ‖ signature ‖ public key). */
export function suiSignatureOf(privateKey: Uint8Array, digest: Uint8Array): string {
  const signature = ed25519.sign(digest, privateKey);
  // @noble/curves, bytes in and out: the faster OpenSSL route (ed25519PublicKey) takes the key as a base64url string.
  return Buffer.from(Uint8Array.of(0, ...signature, ...ed25519.getPublicKey(privateKey))).toString('base64');
}

export function signWith(chain: Chain, privateKey: Uint8Array, message: Uint8Array): string {
  switch (chain) {
    case 'evm':
      return signEvm(privateKey, message);
    case 'sol':
      return signSol(privateKey, message);
    case 'sui':
      return signSui(privateKey, message);
  }
}
