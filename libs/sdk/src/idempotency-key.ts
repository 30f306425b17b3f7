import { randomUuid } from './crypto/web-crypto';

/**
 * A key as the platform's contract takes it (IETF httpapi draft "The Idempotency-Key HTTP Header Field", whose value
 * is a Structured Field String): 1–255 printable ASCII characters without `"` and `\`, so that the String needs no
 * escapes and the key reads the same quoted or not.
 */
const KEY = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,255}$/;

/** The caller's key, checked before anything is sent; a `TypeError` says what is wrong with it. */
export function checkedIdempotencyKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters (0x20-0x7E), without " and \\');
  }
  return key;
}

/**
 * A new key for one call: a random (version 4) UUID. Made once per call and sent unchanged with every retry, so the
 * platform answers a retry of a write it already did with that write's answer instead of doing it again.
 */
export function newIdempotencyKey(): Promise<string> {
  return randomUuid();
}

/** The header's value: the key as a Structured Field String (RFC 8941 §3.3.3), i.e. in double quotes. */
export function idempotencyKeyHeader(key: string): string {
  return `"${key}"`;
}
