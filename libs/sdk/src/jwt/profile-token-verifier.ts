import type { Jwks, ProfileClaims } from '../contract-types';
import { GameWalletError } from '../errors';
import { ClientOptions, FetchFunction, HttpClient } from '../http-client';
import { base64UrlDecode } from '../crypto/base64';
import { JwksCacheSettings, JwksKeySet } from './jwks-key-set';
import { webCrypto } from '../crypto/web-crypto';

/** SPEC §3: the audience of profile JWTs (typed against the contract, so a change there fails the build here). */
const PROFILE_AUDIENCE: ProfileClaims['aud'] = 'game-wallet:profile';

export interface ProfileClaimsOptions {
  /** The expected `iss` (the platform's `JWT_ISSUER`, default `game-wallet`); not checked when absent. */
  issuer?: string;
  /** The expected `aud` (default `game-wallet:profile`). */
  audience?: string;
  /** Clock skew allowed when checking `exp`, `nbf` and `iat`, in seconds (default 5). */
  clockToleranceSec?: number;
}

/**
 * The game (`app` claim) a token must be for. One platform issues tokens to the players of every game on it, all
 * signed by the same keys: without this check a game server would accept a token made for a player of another game.
 * It is required, not a default: a forgotten option would go unnoticed (every token of one's own game still verifies),
 * so accepting every game must be said at the call site with `acceptAnyApp: true`, for the rare server that serves
 * every game of a platform and checks `claims.app` itself.
 */
export type ExpectedApp =
  | {
      /** The game id (`applicationId`) a token must be for, or the ids of the games this server serves. */
      app: string | readonly string[];
      acceptAnyApp?: never;
    }
  | {
      /** Accept tokens of every game: the caller checks `claims.app` itself. */
      acceptAnyApp: true;
      app?: never;
    };

/** What a verified token must carry besides its signature. */
export type ProfileClaimsCheck = ProfileClaimsOptions & ExpectedApp;

export type JwksSource = { jwksUrl: string; baseUrl?: never } | { baseUrl: string; jwksUrl?: never };

export type ProfileTokenVerifierOptions = JwksSource &
  ProfileClaimsCheck &
  ClientOptions & {
    /** How long the fetched JWKS is used, in seconds (default 300, the platform's `max-age`). */
    jwksCacheSec?: number;
    /** The least time between two JWKS fetches caused by unknown `kid`s, in seconds (default 30). */
    jwksCooldownSec?: number;
  };

const DEFAULT_CACHE: JwksCacheSettings = { cacheSec: 300, cooldownSec: 30 };
const DEFAULT_TOLERANCE_SEC = 5;

/**
 * Verifies profile JWTs offline (SPEC §3): ES256 over the JWKS's P-256 keys with WebCrypto, then `aud`, `app` (the
 * game, see {@link ExpectedApp}), `iss` when configured, `exp`, `nbf` and `iat`. The JWKS is fetched on first use and cached for `jwksCacheSec`; a token from a
 * key not in the cache (a rotation) fetches it again, at most once per `jwksCooldownSec`. Revocation is not seen
 * offline: a revoked token verifies here until it expires; the platform itself refuses it.
 */
export class ProfileTokenVerifier {
  private readonly keys: JwksKeySet;
  private readonly check: ResolvedCheck;

  /** Throws a `TypeError` without a JWKS source, or without `app` (or `acceptAnyApp: true`). */
  constructor(options: ProfileTokenVerifierOptions) {
    this.check = resolveCheck(options);
    this.keys = keySetFor(options, { cacheSec: options.jwksCacheSec ?? DEFAULT_CACHE.cacheSec, cooldownSec: options.jwksCooldownSec ?? DEFAULT_CACHE.cooldownSec });
  }

  /** The token's claims; `INVALID_TOKEN` or `TOKEN_EXPIRED` when it is not a valid profile JWT for the expected game. */
  verify(jwt: string): Promise<ProfileClaims> {
    return verifyWith(this.keys, jwt, this.check);
  }
}

const sharedKeySets = new Map<FetchFunction | undefined, Map<string, JwksKeySet>>();

/**
 * {@link ProfileTokenVerifier.verify} without keeping a verifier: the JWKS cache is shared by every call with the same
 * JWKS URL (and the same `fetch`), with the default cache settings.
 */
export function verifyProfileJwt(jwt: string, options: JwksSource & ProfileClaimsCheck & ClientOptions): Promise<ProfileClaims> {
  const check = resolveCheck(options);
  const url = jwksUrlOf(options);
  let byUrl = sharedKeySets.get(options.fetch);
  if (byUrl === undefined) {
    byUrl = new Map();
    sharedKeySets.set(options.fetch, byUrl);
  }
  let keys = byUrl.get(url);
  if (keys === undefined) {
    keys = keySetFor(options, DEFAULT_CACHE);
    byUrl.set(url, keys);
  }
  return verifyWith(keys, jwt, check);
}

/** The claims check with its games as a list (`undefined`: any game, asked for with `acceptAnyApp: true`). */
interface ResolvedCheck extends ProfileClaimsOptions {
  apps?: readonly string[];
}

function resolveCheck(options: ProfileClaimsCheck): ResolvedCheck {
  const { issuer, audience, clockToleranceSec } = options;
  // Checked at run time too: JavaScript callers get no compile-time error for a missing `app`.
  const { app, acceptAnyApp } = options as { app?: unknown; acceptAnyApp?: unknown };
  if (acceptAnyApp === true) {
    if (app !== undefined) {
      throw new TypeError('app and acceptAnyApp: true exclude each other');
    }
    return { issuer, audience, clockToleranceSec };
  }
  const apps: unknown[] = Array.isArray(app) ? app : [app];
  if (apps.length === 0 || !apps.every((id): id is string => typeof id === 'string' && id.length > 0)) {
    throw new TypeError("app is required: the game id (or ids) whose tokens to accept; acceptAnyApp: true accepts every game's");
  }
  return { issuer, audience, clockToleranceSec, apps };
}

function keySetFor(options: JwksSource & ClientOptions, settings: JwksCacheSettings): JwksKeySet {
  const url = jwksUrlOf(options);
  const http = new HttpClient(options);
  return new JwksKeySet(() => http.request<Jwks>({ method: 'GET', url }), settings);
}

function jwksUrlOf(source: JwksSource): string {
  if (typeof source.jwksUrl === 'string') {
    return source.jwksUrl;
  }
  if (typeof source.baseUrl === 'string') {
    return `${source.baseUrl.replace(/\/+$/, '')}/v1/.well-known/jwks.json`;
  }
  throw new TypeError('jwksUrl or baseUrl is required');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

async function verifyWith(keys: JwksKeySet, jwt: string, check: ResolvedCheck): Promise<ProfileClaims> {
  const parts = typeof jwt === 'string' ? jwt.split('.') : [];
  if (parts.length !== 3) {
    throw invalid('The token is not a JWT (three base64url parts)');
  }
  const [encodedHeader, encodedPayload, encodedSignature] = parts;
  const header = decodeJson(encodedHeader, 'header');
  if (header.alg !== 'ES256') {
    throw invalid('The token is not signed with ES256');
  }
  if (typeof header.kid !== 'string') {
    throw invalid('The token names no signing key (kid)');
  }
  if (header.crit !== undefined) {
    throw invalid('The token requires extensions (crit) this verifier does not know');
  }
  const signature = base64UrlDecode(encodedSignature);
  // ES256 in JWS is r ‖ s, 32 bytes each: the IEEE P1363 form WebCrypto's ECDSA verifies.
  if (signature === undefined || signature.length !== 64) {
    throw invalid('The token signature is not a 64-byte ES256 signature');
  }
  const key = await keys.key(header.kid);
  if (key === undefined) {
    throw invalid('The token is signed by a key the JWKS does not list');
  }
  const subtle = await webCrypto();
  const valid = await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, encoder.encode(`${encodedHeader}.${encodedPayload}`));
  if (!valid) {
    throw invalid('The token signature does not verify');
  }
  return checkClaims(decodeJson(encodedPayload, 'payload'), check);
}

function checkClaims(claims: Record<string, unknown>, check: ResolvedCheck): ProfileClaims {
  const audience = check.audience ?? PROFILE_AUDIENCE;
  const aud = claims.aud;
  if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) {
    throw invalid(`The token is not for audience ${audience}`);
  }
  if (check.issuer !== undefined && claims.iss !== check.issuer) {
    throw invalid(`The token is not issued by ${check.issuer}`);
  }
  for (const name of ['sub', 'app', 'jti', 'iss'] as const) {
    if (typeof claims[name] !== 'string') {
      throw invalid(`The token has no ${name} claim`);
    }
  }
  if (check.apps !== undefined && !check.apps.includes(claims.app as string)) {
    throw invalid(`The token is not for ${check.apps.length === 1 ? `game ${check.apps[0]}` : `any of the games ${check.apps.join(', ')}`}`);
  }
  const { exp, nbf, iat } = claims;
  if (typeof exp !== 'number' || typeof iat !== 'number' || (nbf !== undefined && typeof nbf !== 'number')) {
    throw invalid('The token has no numeric exp and iat');
  }
  const tolerance = check.clockToleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const now = Date.now() / 1000;
  if (now - tolerance >= exp) {
    throw new GameWalletError({ status: 0, code: 'TOKEN_EXPIRED', message: `The token expired at ${new Date(exp * 1000).toISOString()}` });
  }
  if (typeof nbf === 'number' && nbf > now + tolerance) {
    throw invalid('The token is not valid yet (nbf)');
  }
  if (iat > now + tolerance) {
    throw invalid('The token is issued in the future (iat)');
  }
  return claims as unknown as ProfileClaims;
}

function decodeJson(part: string, name: string): Record<string, unknown> {
  const bytes = base64UrlDecode(part);
  let value: unknown;
  try {
    value = bytes === undefined ? undefined : JSON.parse(decoder.decode(bytes));
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`The token ${name} is not a base64url JSON object`);
  }
  return value as Record<string, unknown>;
}

function invalid(message: string): GameWalletError {
  return new GameWalletError({ status: 0, code: 'INVALID_TOKEN', message });
}
