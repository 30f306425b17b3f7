/*
 * The pieces of HTTP Structured Field Values (RFC 8941) the SDK writes: Idempotency-Key, Content-Digest,
 * Signature-Input and Signature.
 */

/** Printable ASCII (0x20–0x7E) without `"` and `\`. Checked by a character class: linear in the length. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Whether `value` is a String (§3.3.3) that needs no escapes, 1 to `maxLength` characters: printable ASCII without
 * `"` and `\`. Such a value reads the same on both sides whether a parser unescapes or not.
 */
export function isPlainString(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= maxLength && PLAIN.test(value);
}

/** A String as a field value: in double quotes (callers pass only {@link isPlainString} values). */
export function sfString(value: string): string {
  return `"${value}"`;
}

/** A Byte Sequence (§3.3.5) as a field value: base64 with padding between colons. */
export function sfBinary(base64: string): string {
  return `:${base64}:`;
}
