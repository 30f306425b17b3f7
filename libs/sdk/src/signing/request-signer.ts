import { base64UrlDecode, base64UrlEncode } from '../crypto/base64';
import { Subtle, webCrypto } from '../crypto/web-crypto';

/** The RFC 9421 §3.3 algorithms the platform verifies request signatures with. */
export type RequestSigningAlgorithm = 'ed25519' | 'ecdsa-p256-sha256';

/**
 * Signs every request of a {@link GameWallet} client (RFC 9421 HTTP Message Signatures), for an API key that requires
 * signed requests. Make one from a PEM file ({@link requestSignerFromPem}) or a WebCrypto key
 * ({@link requestSignerFromCryptoKey}), or implement it over a key your process cannot read (an HSM, a cloud KMS).
 */
export interface RequestSigner {
  /**
   * Sent as `keyid`: the RFC 7638 thumbprint of the public key ({@link requestSigningKeyId}), which the console shows
   * as the key's fingerprint.
   */
  readonly keyId: string;
  readonly algorithm: RequestSigningAlgorithm;
  /**
   * The signature of `data` (the signature base): Ed25519's 64 bytes, or for `ecdsa-p256-sha256` ECDSA over SHA-256
   * of `data` as r‖s, 32 bytes each (IEEE P1363, what WebCrypto gives; not the DER a KMS may answer). A rejection
   * rejects the call with that error.
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** A public key to register for an API key's signed requests: Ed25519 (OKP) or P-256 (EC), base64url coordinates. */
export type RequestSigningPublicJwk = { kty: 'OKP'; crv: 'Ed25519'; x: string } | { kty: 'EC'; crv: 'P-256'; x: string; y: string };

/** A signer over a WebCrypto private key, which also knows its public key. */
export interface WebCryptoRequestSigner extends RequestSigner {
  /** The public key, to register with the platform (console API) for the API key whose requests this signer signs. */
  readonly publicJwk: RequestSigningPublicJwk;
}

/**
 * A WebCrypto `CryptoKey`, as far as the SDK reads it: the browser's `CryptoKey` and Node.js's `webcrypto.CryptoKey`
 * both are one (typed here so that the SDK's declarations need neither the DOM's types nor Node's).
 */
export interface SigningCryptoKey {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: { readonly name: string };
  readonly usages: readonly string[];
}

type WebCryptoKey = Parameters<Subtle['sign']>[1];

/** How WebCrypto names each algorithm: to import its keys, and to sign. */
const WEB_CRYPTO = {
  ed25519: { key: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
  'ecdsa-p256-sha256': { key: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
} as const;

/** A signature's length: Ed25519's R‖S, or P-256's r‖s (IEEE P1363). */
export const SIGNATURE_LENGTH: Readonly<Record<RequestSigningAlgorithm, number>> = { ed25519: 64, 'ecdsa-p256-sha256': 64 };

/**
 * The `keyid` of a public key: its RFC 7638 JWK thumbprint, SHA-256 over the required members in lexicographic order
 * without whitespace (`{"crv","kty","x"}` for Ed25519, `{"crv","kty","x","y"}` for P-256), base64url without padding.
 * Other members of `publicJwk` (`kid`, `use`, `alg`…) do not count. The platform computes the same from the
 * registered key and shows it in the console as the key's fingerprint.
 */
export async function requestSigningKeyId(publicJwk: RequestSigningPublicJwk): Promise<string> {
  const jwk = checkedPublicJwk(publicJwk);
  // JSON.stringify keeps the members in the order written; the values are base64url, which it never escapes.
  const members = jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  const subtle = await webCrypto();
  return base64UrlEncode(new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(members)))));
}

/**
 * A signer from a PKCS#8 PEM private key (`-----BEGIN PRIVATE KEY-----`) of Ed25519 or P-256, told apart by
 * importing it. Other keys (RSA, other curves, SEC1 `EC PRIVATE KEY`, encrypted PEM) are refused with a `TypeError`.
 * The signer keeps the key non-extractable. Ed25519 needs a runtime whose WebCrypto has it (Node.js 18.4+, current
 * browsers); P-256 works everywhere.
 */
export async function requestSignerFromPem(privateKeyPem: string): Promise<WebCryptoRequestSigner> {
  const der = pkcs8Der(privateKeyPem);
  const subtle = await webCrypto();
  let ed25519Unsupported = false;
  for (const algorithm of ['ed25519', 'ecdsa-p256-sha256'] as const) {
    let publicJwk: RequestSigningPublicJwk;
    try {
      // Imported once extractable, only to read its public members; the signer keeps a non-extractable import.
      const readable = await subtle.importKey('pkcs8', der, WEB_CRYPTO[algorithm].key, true, ['sign']);
      publicJwk = publicJwkOf(await subtle.exportKey('jwk', readable), algorithm);
    } catch (error) {
      ed25519Unsupported ||= algorithm === 'ed25519' && (error as { name?: unknown } | undefined)?.name === 'NotSupportedError';
      continue;
    }
    const key = await subtle.importKey('pkcs8', der, WEB_CRYPTO[algorithm].key, false, ['sign']);
    return webCryptoSigner(subtle, key, algorithm, publicJwk);
  }
  throw new TypeError(
    ed25519Unsupported
      ? 'privateKeyPem is not a P-256 private key, and this runtime has no Ed25519 in WebCrypto to try it as one: use a P-256 key, or Node.js 18.4+'
      : 'privateKeyPem must be the PKCS#8 PEM of an Ed25519 or a P-256 private key',
  );
}

/**
 * A signer from a WebCrypto private key (Ed25519, or ECDSA on P-256) with the `sign` usage. Its `keyid` and
 * `publicJwk` come from the public key: give `publicKey` (a generated pair's `publicKey`), or make `privateKey`
 * extractable so that its public members can be read. A `publicKey` that is not `privateKey`'s is refused with a
 * `TypeError` (a probe signed by one must verify with the other).
 */
export async function requestSignerFromCryptoKey(privateKey: SigningCryptoKey, publicKey?: SigningCryptoKey): Promise<WebCryptoRequestSigner> {
  if (typeof privateKey !== 'object' || privateKey === null || privateKey.type !== 'private' || !privateKey.usages.includes('sign')) {
    throw new TypeError('privateKey must be a private CryptoKey with the "sign" usage');
  }
  const algorithm = algorithmOf(privateKey, 'privateKey');
  const subtle = await webCrypto();
  if (publicKey === undefined) {
    if (!privateKey.extractable) {
      throw new TypeError('privateKey is not extractable, so its public key cannot be read: pass it too, requestSignerFromCryptoKey(pair.privateKey, pair.publicKey)');
    }
    return webCryptoSigner(subtle, privateKey as WebCryptoKey, algorithm, publicJwkOf(await subtle.exportKey('jwk', privateKey as WebCryptoKey), algorithm));
  }
  if (typeof publicKey !== 'object' || publicKey === null || publicKey.type !== 'public' || algorithmOf(publicKey, 'publicKey') !== algorithm) {
    throw new TypeError("publicKey must be privateKey's public key");
  }
  const signer = await webCryptoSigner(subtle, privateKey as WebCryptoKey, algorithm, publicJwkOf(await subtle.exportKey('jwk', publicKey as WebCryptoKey), algorithm));
  await checkPair(subtle, signer, algorithm);
  return signer;
}

async function webCryptoSigner(subtle: Subtle, key: WebCryptoKey, algorithm: RequestSigningAlgorithm, publicJwk: RequestSigningPublicJwk): Promise<WebCryptoRequestSigner> {
  const keyId = await requestSigningKeyId(publicJwk);
  return {
    keyId,
    algorithm,
    publicJwk,
    sign: async (data) => new Uint8Array(await subtle.sign(WEB_CRYPTO[algorithm].sign, key, data)),
  };
}

/** A probe signed with the private key must verify with the public one: a mismatched pair fails here, not at the platform. */
async function checkPair(subtle: Subtle, signer: WebCryptoRequestSigner, algorithm: RequestSigningAlgorithm): Promise<void> {
  const probe = new TextEncoder().encode('@game-wallet/sdk request signer');
  const verifier = await subtle.importKey('jwk', signer.publicJwk, WEB_CRYPTO[algorithm].key, false, ['verify']);
  if (!(await subtle.verify(WEB_CRYPTO[algorithm].sign, verifier, await signer.sign(probe), probe))) {
    throw new TypeError("publicKey must be privateKey's public key");
  }
}

function algorithmOf(key: SigningCryptoKey, name: string): RequestSigningAlgorithm {
  const { algorithm } = key;
  if (algorithm.name === 'Ed25519') {
    return 'ed25519';
  }
  if (algorithm.name === 'ECDSA' && (algorithm as { namedCurve?: unknown }).namedCurve === 'P-256') {
    return 'ecdsa-p256-sha256';
  }
  throw new TypeError(`${name} must be an Ed25519 or an ECDSA P-256 key`);
}

/** The public members of an exported JWK (a private JWK's `d` is left behind). */
function publicJwkOf(jwk: { kty?: string; crv?: string; x?: string; y?: string }, algorithm: RequestSigningAlgorithm): RequestSigningPublicJwk {
  return checkedPublicJwk(algorithm === 'ed25519' ? { kty: 'OKP', crv: 'Ed25519', x: jwk.x ?? '' } : { kty: 'EC', crv: 'P-256', x: jwk.x ?? '', y: jwk.y ?? '' });
}

function checkedPublicJwk(jwk: RequestSigningPublicJwk): RequestSigningPublicJwk {
  const coordinate = (value: unknown) => typeof value === 'string' && base64UrlDecode(value)?.length === 32;
  if (typeof jwk === 'object' && jwk !== null) {
    if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && coordinate(jwk.x)) {
      return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
    }
    if (jwk.kty === 'EC' && jwk.crv === 'P-256' && coordinate(jwk.x) && coordinate(jwk.y)) {
      return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
    }
  }
  throw new TypeError('publicJwk must be an Ed25519 ({kty: "OKP", crv: "Ed25519", x}) or a P-256 ({kty: "EC", crv: "P-256", x, y}) public key, coordinates of 32 bytes in base64url');
}

const PEM_BEGIN = '-----BEGIN PRIVATE KEY-----';
const PEM_END = '-----END PRIVATE KEY-----';

/** The DER bytes of the first PKCS#8 `PRIVATE KEY` block; a `TypeError` naming what else was given. */
function pkcs8Der(pem: string): Uint8Array {
  if (typeof pem !== 'string') {
    throw new TypeError('privateKeyPem must be a PEM string');
  }
  const begin = pem.indexOf(PEM_BEGIN);
  if (begin < 0) {
    throw new TypeError(notPkcs8(/-----BEGIN ([A-Z0-9 ]{1,40})-----/.exec(pem)?.[1]));
  }
  const end = pem.indexOf(PEM_END, begin);
  if (end < 0) {
    throw new TypeError(`privateKeyPem: the PRIVATE KEY block has no end (${PEM_END})`);
  }
  const base64 = pem.slice(begin + PEM_BEGIN.length, end).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    throw new TypeError('privateKeyPem: the PRIVATE KEY block is not base64');
  }
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

function notPkcs8(label: string | undefined): string {
  switch (label) {
    case undefined:
      return `privateKeyPem must be a PKCS#8 PEM private key (${PEM_BEGIN})`;
    case 'ENCRYPTED PRIVATE KEY':
      return 'privateKeyPem is encrypted: decrypt it first (openssl pkcs8 -in key.pem -out plain.pem)';
    case 'EC PRIVATE KEY':
      return `privateKeyPem is a SEC1 EC key: convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in key.pem), ${PEM_BEGIN}`;
    case 'RSA PRIVATE KEY':
      return 'privateKeyPem is an RSA key: signed requests take an Ed25519 or a P-256 key';
    default:
      return `privateKeyPem holds a ${label}, not a PKCS#8 private key (${PEM_BEGIN})`;
  }
}
