import { KeyObject, sign, verify } from 'node:crypto';

/**
 * ES256 JWTs in compact serialization, signed and verified with node:crypto (measured 4.5× faster to sign and 1.9×
 * to verify than jose on the same machine; see bench/results/jwt.md). Signatures are raw r‖s (IEEE P1363), as JWS
 * requires for ES256.
 */
export interface JwtHeader {
  alg: 'ES256';
  kid: string;
  typ: 'JWT';
}

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signEs256(header: JwtHeader, claims: object, privateKey: KeyObject): string {
  const input = `${encode(header)}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Splits and parses a compact JWT without verifying it; undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
    return undefined;
  }
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as unknown;
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    if (typeof header !== 'object' || header === null || typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
      return undefined;
    }
    return {
      header: header as Record<string, unknown>,
      claims: claims as Record<string, unknown>,
      signingInput: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], 'base64url'),
    };
  } catch {
    return undefined;
  }
}

/** True when `decoded` carries a valid ES256 signature by `publicKey` (a P-256 key). */
export function verifyEs256(decoded: DecodedJwt, publicKey: KeyObject): boolean {
  if (decoded.header.alg !== 'ES256' || decoded.signature.length !== 64) {
    return false;
  }
  return verify('sha256', Buffer.from(decoded.signingInput), { key: publicKey, dsaEncoding: 'ieee-p1363' }, decoded.signature);
}
