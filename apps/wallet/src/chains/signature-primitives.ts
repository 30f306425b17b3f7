import { secp256k1 } from '@noble/curves/secp256k1';
import { KeyObject, createPrivateKey, createPublicKey, sign } from 'node:crypto';

/**
 * The one signature each chain makes: key bytes and a payload in, signature bytes out. This is the only code that
 * signs with a chain key, kept apart from the rest of each chain's file so that it runs on the event loop or in the key
 * worker alike (signatures/signing-placement.ts), and so that a primitive is swapped in one place. Deterministic on
 * every chain (RFC 6979 for secp256k1, Ed25519 by construction): a retried signature is the same signature.
 *
 * Chosen by bench/signing/primitives.mjs (bench/README.md, "The signature primitive"): secp256k1 by @noble/curves
 * (audited; its precomputed tables for the base point built when this module loads, on the event loop and in each key
 * worker alike), Ed25519 by node:crypto (OpenSSL; the same bytes as @noble/curves, several times faster here).
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

// Built now rather than by the first signature of each thread (tens of milliseconds once; then the base point's
// multiples are looked up instead of computed).
secp256k1.utils.precompute(8);

/**
 * An Ed25519 seed as an OpenSSL key: through a JWK, the one import that skips OpenSSL's decoder chain (a PKCS#8 DER
 * import costs more than the signature); Node reads only `d` of a private OKP JWK (`x` must merely be a string).
 */
function ed25519Key(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(seed.buffer, seed.byteOffset, seed.length).toString('base64url'), x: '' }, format: 'jwk' });
}

function ed25519Signature(key: Uint8Array, message: Uint8Array): Uint8Array {
  return sign(null, message, ed25519Key(key));
}

function suiEd25519Signature(key: Uint8Array, digest: Uint8Array): Uint8Array {
  const privateKey = ed25519Key(key);
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof x !== 'string') {
    throw new Error('Ed25519 public key export returned no key');
  }
  const out = new Uint8Array(97);
  out.set(sign(null, digest, privateKey), 1);
  out.set(Buffer.from(x, 'base64url'), 65);
  return out;
}

export const SIGNATURE_PRIMITIVES = {
  evm: secp256k1Recoverable,
  sol: ed25519Signature,
  sui: suiEd25519Signature,
} as const satisfies Record<'evm' | 'sol' | 'sui', SignaturePrimitive>;
