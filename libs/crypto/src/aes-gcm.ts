import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM output: a random 96-bit IV, the ciphertext and the 128-bit tag. */
export interface Sealed {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** Thrown when a ciphertext, its tag or its associated data do not match (tampering, or the wrong key). */
export class IntegrityError extends Error {
  constructor() {
    super('Authenticated decryption failed');
    this.name = 'IntegrityError';
  }
}

/**
 * Encrypts `plaintext` under a 32-byte `key` with AES-256-GCM and a fresh random 96-bit IV. `aad` is authenticated but
 * not encrypted: decryption succeeds only with the same `aad`, which binds a ciphertext to its owner (e.g. a row id).
 */
export function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Sealed {
  if (key.length !== 32) {
    throw new Error('AES-256-GCM needs a 32-byte key');
  }
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

/**
 * Decrypts what {@link seal} produced; throws {@link IntegrityError} on any mismatch. Only a 12-byte IV and a full
 * 16-byte tag are taken: GCM would otherwise check a shortened tag, whose few bits a forger can guess.
 *
 * The plaintext (a data key, a wallet's entropy, a signing key) is left in one buffer only, the one returned, which the
 * caller zeroes: GCM's `final()` adds no bytes, so `update()`'s output is returned as it is, and any other output is
 * zeroed. When the tag does not verify, `update()` has already written the plaintext (GCM authenticates at `final()`),
 * and that buffer is zeroed before the refusal: with the right key and another owner's associated data it is the real
 * secret.
 */
export function open(key: Buffer, sealed: Sealed, aad: Buffer): Buffer {
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) {
    throw new IntegrityError();
  }
  let head: Buffer | undefined;
  let tail: Buffer | undefined;
  let plaintext: Buffer | undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.tag);
    head = decipher.update(sealed.ciphertext);
    tail = decipher.final();
    plaintext = tail.length === 0 ? head : Buffer.concat([head, tail]);
    return plaintext;
  } catch {
    throw new IntegrityError();
  } finally {
    for (const part of [head, tail]) {
      if (part !== undefined && part !== plaintext) {
        part.fill(0);
      }
    }
  }
}
