import { KeyObject, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'ok' | 'unsigned' | 'unknown-key' | 'bad-signature';

/**
 * The keys of one link between two apps (see TransportKeys): HMAC-SHA256 under the current key, tagged with its id, so
 * a key can rotate without downtime (add the new key on both ends, make it current, then remove the old one). Anyone
 * who can write to Redis but holds no key cannot make a service run a request, nor a gateway accept a reply.
 *
 * What is signed is a context naming where the message travels (the service's stream, the caller's reply channel) and
 * the message's exact text: pattern, payload with its principal, deadline, reply channel and request id. A message
 * cannot be altered, nor moved to another stream or channel; a copy of a real one expires with its deadline.
 */
export class TransportKeyring {
  /** Imported once: an HMAC keyed with a KeyObject skips converting the key on every message. */
  private readonly keys: ReadonlyMap<string, KeyObject>;

  constructor(
    keys: ReadonlyMap<string, Buffer>,
    private readonly currentId: string,
  ) {
    if (!keys.has(currentId)) {
      throw new Error(`The current transport key ${currentId} is not among the keys`);
    }
    for (const key of keys.values()) {
      if (key.length < 32) {
        throw new Error('Transport keys must be at least 32 bytes');
      }
    }
    this.keys = new Map([...keys].map(([id, key]) => [id, createSecretKey(key)]));
  }

  /** A keyring of one fresh random key (tests and benchmarks). */
  static random(id = 'test'): TransportKeyring {
    return new TransportKeyring(new Map([[id, randomBytes(32)]]), id);
  }

  /** `<key id>.<base64url HMAC-SHA256>` of the message text in its context. */
  sign(context: string, text: string): string {
    return `${this.currentId}.${this.mac(this.keys.get(this.currentId) as KeyObject, context, text).toString('base64url')}`;
  }

  verify(context: string, text: string, signature: string | undefined): SignatureCheck {
    if (!signature) {
      return 'unsigned';
    }
    // The MAC is base64url (no dot); a key id may hold dots.
    const dot = signature.lastIndexOf('.');
    const key = dot > 0 ? this.keys.get(signature.slice(0, dot)) : undefined;
    if (!key) {
      return 'unknown-key';
    }
    const expected = this.mac(key, context, text);
    const presented = Buffer.from(signature.slice(dot + 1), 'base64url');
    return presented.length === expected.length && timingSafeEqual(presented, expected) ? 'ok' : 'bad-signature';
  }

  /** One `update` of the whole input: each call into OpenSSL costs more than the hashing of a short message. */
  private mac(key: KeyObject, context: string, text: string): Buffer {
    return createHmac('sha256', key).update(`${context}\n${text}`).digest();
  }
}
