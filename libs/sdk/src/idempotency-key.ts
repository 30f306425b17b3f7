import { randomUuid } from './crypto/web-crypto';
import { isPlainString, sfString } from './structured-fields';

/**
 * The caller's key, checked before anything is sent (a `TypeError` says what is wrong with it), as the platform's
 * contract takes it (IETF httpapi draft "The Idempotency-Key HTTP Header Field", whose value is a Structured Field
 * String): 1–255 printable ASCII characters without `"` and `\`, so that the String needs no escapes.
 */
export function checkedIdempotencyKey(key: unknown): string {
  if (!isPlainString(key, 255)) {
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
  return sfString(key);
}
