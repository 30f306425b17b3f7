import { createHash, randomBytes } from 'node:crypto';

/** How many recovery codes an operator gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 alphabet: no I, L, O or U, so a code read off paper is typed back right. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 12 characters of 5 bits: 60 random bits a code, shown as `xxxx-xxxx-xxxx`. */
const LENGTH = 12;

/** Ten new single-use codes, shown once; only their {@link hashRecoveryCode} is stored. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // One byte per character, 5 of its bits used (256 is a multiple of 32: no bias).
    const characters = [...randomBytes(LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
    return `${characters.slice(0, 4)}-${characters.slice(4, 8)}-${characters.slice(8)}`;
  });
}

/**
 * SHA-256 (hex) of a code as typed, in one canonical form: case, spaces and dashes do not matter, and the letters
 * Crockford reads as digits (i, l → 1, o → 0) are read so. 60 random bits need no slow hash.
 */
export function hashRecoveryCode(code: string): string {
  const canonical = code
    .toLowerCase()
    .replace(/[\s-]/g, '')
    .replace(/[il]/g, '1')
    .replace(/o/g, '0');
  return createHash('sha256').update(canonical).digest('hex');
}
