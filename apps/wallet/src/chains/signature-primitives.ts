import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';

/**
 * The one signature each chain makes: key bytes and a payload in, signature bytes out. This is the only code that
 * signs with a chain key, kept apart from the rest of each chain's file so that it runs on the event loop or in the key
 * worker alike (signatures/signing-placement.ts), and so that a primitive is swapped in one place. Deterministic on
 * every chain (RFC 6979 for secp256k1, Ed25519 by construction): a retried signature is the same signature.
 *
 * - evm: secp256k1 ECDSA of a 32-byte digest, low s (EIP-2): r (32) ‖ s (32) ‖ recovery bit (1)
 * - sol: Ed25519 of the payload bytes: the 64-byte signature
 * - sui: Ed25519 of a 32-byte intent digest, in Sui's serialized form: flag 0x00 ‖ signature (64) ‖ public key (32)
 */
export type SignaturePrimitive = (key: Uint8Array, payload: Uint8Array) => Uint8Array;

function secp256k1Recoverable(key: Uint8Array, digest: Uint8Array): Uint8Array {
  const signature = secp256k1.sign(digest, key, { lowS: true });
  const out = new Uint8Array(65);
  out.set(signature.toCompactRawBytes());
  out[64] = signature.recovery;
  return out;
}

function ed25519Signature(key: Uint8Array, message: Uint8Array): Uint8Array {
  return ed25519.sign(message, key);
}

function suiEd25519Signature(key: Uint8Array, digest: Uint8Array): Uint8Array {
  const out = new Uint8Array(97);
  out.set(ed25519.sign(digest, key), 1);
  out.set(ed25519.getPublicKey(key), 65);
  return out;
}

export const SIGNATURE_PRIMITIVES = {
  evm: secp256k1Recoverable,
  sol: ed25519Signature,
  sui: suiEd25519Signature,
} as const satisfies Record<'evm' | 'sol' | 'sui', SignaturePrimitive>;
