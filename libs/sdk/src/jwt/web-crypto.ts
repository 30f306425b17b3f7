/** WebCrypto's SubtleCrypto, as Node.js and browsers both offer it. */
export type Subtle = NonNullable<typeof globalThis.crypto>['subtle'];

let nodeFallback: Promise<Subtle> | undefined;

/**
 * `globalThis.crypto.subtle`, or on Node.js 18 (where WebCrypto is not global yet) `webcrypto.subtle` of
 * `node:crypto`. The import specifier is a variable so that browser bundlers neither resolve nor bundle it: a browser
 * always takes the first branch, except on a page that is not a secure context (http), which has no `crypto.subtle`.
 */
export function webCrypto(scope: { crypto?: { subtle?: Subtle } } = globalThis): Promise<Subtle> {
  const subtle = scope.crypto?.subtle;
  if (subtle) {
    return Promise.resolve(subtle);
  }
  nodeFallback ??= loadNodeWebCrypto();
  return nodeFallback;
}

async function loadNodeWebCrypto(): Promise<Subtle> {
  const specifier = 'node:crypto';
  try {
    const nodeCrypto = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as { webcrypto?: { subtle?: Subtle } };
    if (nodeCrypto.webcrypto?.subtle) {
      return nodeCrypto.webcrypto.subtle;
    }
  } catch {
    // not Node.js: the error below says what to do
  }
  nodeFallback = undefined;
  throw new Error('WebCrypto (crypto.subtle) is not available here; browsers offer it on https pages (secure contexts) only');
}
