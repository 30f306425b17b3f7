import type { Jwks } from '../contract-types';
import { GameWalletError } from '../errors';
import { Subtle, webCrypto } from '../crypto/web-crypto';

type VerifyKey = Awaited<ReturnType<Subtle['importKey']>>;

export interface JwksCacheSettings {
  /** How long a fetched JWKS is used before it is fetched again (seconds). */
  cacheSec: number;
  /** The least time between two fetches, however many unknown `kid`s arrive (seconds). */
  cooldownSec: number;
}

interface PublicKeyJwk {
  kid: string;
  x: string;
  y: string;
}

/**
 * The JWKS's P-256 verification keys by `kid`, fetched on first use and cached for `cacheSec`. A token signed by a
 * key the cache does not hold (a rotation) fetches the set again at once, but such fetches happen at most once per
 * `cooldownSec`, so forged `kid`s cannot make it hammer the platform. While the platform cannot be reached, the keys
 * last fetched keep verifying.
 */
export class JwksKeySet {
  private jwks = new Map<string, PublicKeyJwk>();
  private imported = new Map<string, Promise<VerifyKey>>();
  private fetchedAt?: number;
  private attemptedAt?: number;
  private unknownKidFetchAt?: number;
  private pending?: Promise<void>;

  constructor(
    private readonly load: () => Promise<Jwks>,
    private readonly settings: JwksCacheSettings,
  ) {}

  /** The key of `kid`, or undefined when the JWKS (fetched again if allowed) does not list it. */
  async key(kid: string): Promise<VerifyKey | undefined> {
    const now = Date.now();
    const known = this.jwks.has(kid);
    if (this.fetchedAt === undefined || now - this.fetchedAt >= this.settings.cacheSec * 1000) {
      // After a failed fetch of a stale set, the old keys serve for a cooldown before the next attempt.
      const failedLately = this.fetchedAt !== undefined && this.attemptedAt !== undefined && now - this.attemptedAt < this.settings.cooldownSec * 1000;
      if (!failedLately) {
        await this.refresh().catch((error: unknown) => {
          if (!known) {
            throw error;
          }
        });
      }
    } else if (!known && (this.unknownKidFetchAt === undefined || now - this.unknownKidFetchAt >= this.settings.cooldownSec * 1000)) {
      this.unknownKidFetchAt = now;
      await this.refresh();
    }
    const jwk = this.jwks.get(kid);
    if (jwk === undefined) {
      return undefined;
    }
    let key = this.imported.get(kid);
    if (key === undefined) {
      key = importKey(jwk);
      this.imported.set(kid, key);
      void key.catch(() => this.imported.delete(kid));
    }
    return key;
  }

  private refresh(): Promise<void> {
    this.pending ??= this.fetchKeys().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchKeys(): Promise<void> {
    this.attemptedAt = Date.now();
    const jwks = await this.load();
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray(jwks.keys)) {
      throw new GameWalletError({ status: 0, code: 'UNEXPECTED_RESPONSE', message: 'The JWKS has no "keys" array' });
    }
    const keys = new Map<string, PublicKeyJwk>();
    for (const candidate of jwks.keys as unknown[]) {
      if (isP256VerifyKey(candidate)) {
        keys.set(candidate.kid, { kid: candidate.kid, x: candidate.x, y: candidate.y });
      }
    }
    for (const [kid, jwk] of this.jwks) {
      const next = keys.get(kid);
      if (next === undefined || next.x !== jwk.x || next.y !== jwk.y) {
        this.imported.delete(kid);
      }
    }
    this.jwks = keys;
    this.fetchedAt = Date.now();
  }
}

function isP256VerifyKey(value: unknown): value is PublicKeyJwk {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const jwk = value as Record<string, unknown>;
  return (
    jwk.kty === 'EC' &&
    jwk.crv === 'P-256' &&
    typeof jwk.kid === 'string' &&
    typeof jwk.x === 'string' &&
    typeof jwk.y === 'string' &&
    (jwk.alg === undefined || jwk.alg === 'ES256') &&
    (jwk.use === undefined || jwk.use === 'sig')
  );
}

async function importKey(jwk: PublicKeyJwk): Promise<VerifyKey> {
  const subtle = await webCrypto();
  try {
    return await subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  } catch (cause) {
    throw new GameWalletError({ status: 0, code: 'UNEXPECTED_RESPONSE', message: `The JWKS key ${jwk.kid} is not a valid P-256 public key`, cause });
  }
}
