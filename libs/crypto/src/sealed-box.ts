import { KeyObject, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync } from 'node:crypto';
import { IntegrityError, open, seal } from './aes-gcm';

/** DER of a PKCS#8 X25519 private key before its 32 raw bytes (RFC 8410), to import a key derived from a seed. */
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const VERSION = 'x25519-v1';

/** An X25519 key pair that opens sealed boxes; the public half travels as 32 raw bytes, base64url. */
export interface BoxKeyPair {
  privateKey: KeyObject;
  /** raw 32 bytes, base64url */
  publicKey: string;
}

/** The key pair made from a 32-byte secret seed (every replica that holds the seed holds the same pair). */
export function boxKeyPairFromSeed(seed: Uint8Array): BoxKeyPair {
  if (seed.length !== 32) {
    throw new Error('An X25519 seed is 32 bytes');
  }
  const der = Buffer.concat([X25519_PKCS8_PREFIX, seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  der.fill(0);
  return { privateKey, publicKey: rawPublicKey(createPublicKey(privateKey)) };
}

/**
 * Encrypts a short secret so that only the holder of `recipientPublicKey`'s private key can read it: a fresh X25519
 * key pair per message, its shared secret with the recipient through HKDF-SHA256 (salted with both public keys) into
 * an AES-256-GCM key, `aad` bound. Answers `x25519-v1.<ephemeral public key>.<iv>.<ciphertext>.<tag>` (base64url).
 */
export function sealTo(recipientPublicKey: string, plaintext: Buffer, aad: Buffer): string {
  const recipient = publicKeyFromRaw(recipientPublicKey);
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralPublic = rawPublicKey(ephemeral.publicKey);
  const key = boxKey(diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }), ephemeralPublic, recipientPublicKey);
  const sealed = seal(key, plaintext, aad);
  key.fill(0);
  return [VERSION, ephemeralPublic, ...[sealed.iv, sealed.ciphertext, sealed.tag].map((part) => part.toString('base64url'))].join('.');
}

/** Opens what {@link sealTo} made for `keyPair`; throws {@link IntegrityError} on any mismatch or malformed input. */
export function openSealed(keyPair: BoxKeyPair, box: string, aad: Buffer): Buffer {
  const parts = box.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) {
    throw new IntegrityError();
  }
  const [, ephemeralPublic, iv, ciphertext, tag] = parts;
  let shared: Buffer;
  try {
    shared = diffieHellman({ privateKey: keyPair.privateKey, publicKey: publicKeyFromRaw(ephemeralPublic) });
  } catch {
    throw new IntegrityError();
  }
  const key = boxKey(shared, ephemeralPublic, keyPair.publicKey);
  try {
    return open(key, { iv: Buffer.from(iv, 'base64url'), ciphertext: Buffer.from(ciphertext, 'base64url'), tag: Buffer.from(tag, 'base64url') }, aad);
  } finally {
    key.fill(0);
  }
}

function boxKey(shared: Buffer, ephemeralPublic: string, recipientPublic: string): Buffer {
  const salt = Buffer.concat([Buffer.from(ephemeralPublic, 'base64url'), Buffer.from(recipientPublic, 'base64url')]);
  const key = Buffer.from(hkdfSync('sha256', shared, salt, `game-wallet sealed box ${VERSION}`, 32));
  shared.fill(0);
  return key;
}

function rawPublicKey(key: KeyObject): string {
  return key.export({ format: 'jwk' }).x as string;
}

function publicKeyFromRaw(raw: string): KeyObject {
  if (!/^[A-Za-z0-9_-]{43}$/.test(raw)) {
    throw new IntegrityError();
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw }, format: 'jwk' });
}
