import { AppError, RequestSignatureAlgorithm, SigningPublicJwk } from '@game-wallet/contracts';
import { KeyObject, createHash, createPublicKey } from 'node:crypto';

/** A PEM or a JWK is far below this; anything longer is refused before it is parsed. */
export const PUBLIC_KEY_INPUT_MAX = 4096;

export interface ParsedSigningKey {
  /** RFC 7638 thumbprint (SHA-256, base64url): the key's fingerprint and `keyid` */
  id: string;
  algorithm: RequestSignatureAlgorithm;
  publicKey: SigningPublicJwk;
}

/**
 * A request-signing public key from what an operator pasted: a PEM (`-----BEGIN PUBLIC KEY-----`, SPKI) or a JWK
 * object. Only Ed25519 and P-256 are taken. A private key is refused without being read further or echoed: it must
 * never leave its owner, and an operator who pasted one should make a new one.
 */
export function parseSigningPublicKey(input: string | Record<string, unknown>): ParsedSigningKey {
  let key: KeyObject;
  if (typeof input === 'string') {
    if (input.length > PUBLIC_KEY_INPUT_MAX) {
      throw invalid(`is longer than ${PUBLIC_KEY_INPUT_MAX} characters`);
    }
    if (/PRIVATE KEY/.test(input)) {
      throw invalid('is a private key: register its public key, and make a new pair (this one was shared)');
    }
    if (!/^\s*-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----\s*$/.test(input)) {
      throw invalid('must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a JWK object');
    }
    key = publicKeyOf(() => createPublicKey({ key: input, format: 'pem' }));
  } else {
    if (Object.hasOwn(input, 'd')) {
      throw invalid('is a private key: register its public key, and make a new pair (this one was shared)');
    }
    const { kty, crv, x, y } = input;
    if (!((kty === 'OKP' && crv === 'Ed25519') || (kty === 'EC' && crv === 'P-256'))) {
      throw invalid('must be an Ed25519 (kty OKP, crv Ed25519) or P-256 (kty EC, crv P-256) key');
    }
    const jwk = kty === 'OKP' ? { kty, crv, x } : { kty, crv, x, y };
    key = publicKeyOf(() => createPublicKey({ key: jwk as never, format: 'jwk' }));
  }
  const publicKey = exportJwk(key);
  return { id: jwkThumbprint(publicKey), algorithm: publicKey.kty === 'OKP' ? 'ed25519' : 'ecdsa-p256-sha256', publicKey };
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no whitespace, base64url. */
export function jwkThumbprint(jwk: SigningPublicJwk): string {
  const members = jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

function publicKeyOf(make: () => KeyObject): KeyObject {
  try {
    return make();
  } catch {
    throw invalid('could not be read as a public key');
  }
}

function exportJwk(key: KeyObject): SigningPublicJwk {
  if (key.type !== 'public') {
    throw invalid('must be a public key');
  }
  if (key.asymmetricKeyType === 'ed25519') {
    const { x } = key.export({ format: 'jwk' });
    return { kty: 'OKP', crv: 'Ed25519', x: String(x) };
  }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    const { x, y } = key.export({ format: 'jwk' });
    return { kty: 'EC', crv: 'P-256', x: String(x), y: String(y) };
  }
  throw invalid('must be an Ed25519 or a P-256 key');
}

function invalid(problem: string): AppError {
  return new AppError('VALIDATION_FAILED', `publicKey ${problem}`);
}
