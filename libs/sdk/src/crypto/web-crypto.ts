/** WebCrypto's SubtleCrypto, as Node.js and browsers both offer it. */
export type Subtle = NonNullable<typeof globalThis.crypto>['subtle'];

/** The part of WebCrypto's `Crypto` the SDK uses. */
export interface WebCryptoScope {
  crypto?: {
    subtle?: Subtle;
    getRandomValues?<T extends Uint8Array>(array: T): T;
    randomUUID?(): string;
  };
}

type NodeWebCrypto = Required<NonNullable<WebCryptoScope['crypto']>>;

let nodeFallback: Promise<NodeWebCrypto> | undefined;

/**
 * `globalThis.crypto.subtle`, or on Node.js 18 (where WebCrypto is not global yet) `webcrypto.subtle` of
 * `node:crypto`. The import specifier is a variable so that browser bundlers neither resolve nor bundle it: a browser
 * always takes the first branch, except on a page that is not a secure context (http), which has no `crypto.subtle`.
 */
export async function webCrypto(scope: WebCryptoScope = globalThis): Promise<Subtle> {
  return scope.crypto?.subtle ?? (await nodeWebCrypto()).subtle;
}

/**
 * `length` bytes from the platform's cryptographically secure generator (`crypto.getRandomValues`, which browsers
 * offer on http pages too; `node:crypto`'s on Node.js 18).
 */
export async function randomBytes(length: number, scope: WebCryptoScope = globalThis): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  const local = scope.crypto;
  if (local?.getRandomValues) {
    return local.getRandomValues(bytes);
  }
  return (await nodeWebCrypto()).getRandomValues(bytes);
}

/**
 * A random (version 4) UUID: `crypto.randomUUID` where there is one (it is missing on a browser's http pages), else
 * the RFC 9562 §5.4 layout over 16 random bytes.
 */
export async function randomUuid(scope: WebCryptoScope = globalThis): Promise<string> {
  if (scope.crypto?.randomUUID) {
    return scope.crypto.randomUUID();
  }
  const bytes = await randomBytes(16, scope);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function nodeWebCrypto(): Promise<NodeWebCrypto> {
  nodeFallback ??= loadNodeWebCrypto();
  return nodeFallback;
}

async function loadNodeWebCrypto(): Promise<NodeWebCrypto> {
  const specifier = 'node:crypto';
  try {
    const nodeCrypto = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as { webcrypto?: WebCryptoScope['crypto'] };
    const { webcrypto } = nodeCrypto;
    if (webcrypto?.subtle && webcrypto.getRandomValues && webcrypto.randomUUID) {
      return webcrypto as NodeWebCrypto;
    }
  } catch {
    // not Node.js: the error below says what to do
  }
  nodeFallback = undefined;
  throw new Error('WebCrypto (crypto.subtle) is not available here; browsers offer it on https pages (secure contexts) only');
}
