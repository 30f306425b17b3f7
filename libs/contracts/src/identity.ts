import type { ConsoleAccountView } from './console-access';
/** Wire types of the identity service (games, API keys, profiles, tokens, console operators, audit). */

/** A page of a list, newest first; `nextCursor` is opaque and null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  cursor?: string;
  limit: number;
}

export interface GameView {
  id: string;
  name: string;
  createdAt: string;
}

/** A game as the console lists it: with the number of its API keys (active and inactive). */
export interface GameSummaryView extends GameView {
  apiKeyCount: number;
}

/** An API key as listed; the secret itself is never stored, only its SHA-256. */
export interface ApiKeyView {
  id: string;
  name: string;
  /** `gk_` + first 4 + `…` + last 4 characters of the secret */
  preview: string;
  active: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  /** Which requests with this key must carry an RFC 9421 signature by one of its signing keys. */
  signedRequests: SignedRequests;
  /** Its registered request-signing public keys (at most {@link SIGNING_KEYS_PER_API_KEY}). */
  signingKeys: SigningKeyView[];
}

/**
 * Which requests of an API key must be signed (RFC 9421): `off`, none; `signing`, those that sign or mint a credential
 * that can (sign, sign-transaction, sign-typed-data, a profile's authenticate); `all`, every request.
 */
export const SIGNED_REQUESTS = ['off', 'signing', 'all'] as const;
export type SignedRequests = (typeof SIGNED_REQUESTS)[number];

/** RFC 9421 algorithms a signing key may use: Ed25519 or ECDSA P-256 with SHA-256. */
export const REQUEST_SIGNATURE_ALGORITHMS = ['ed25519', 'ecdsa-p256-sha256'] as const;
export type RequestSignatureAlgorithm = (typeof REQUEST_SIGNATURE_ALGORITHMS)[number];

/** An API key may register this many request-signing keys (two for rotation, one spare). */
export const SIGNING_KEYS_PER_API_KEY = 3;

/** A public key as a JWK (RFC 7517): Ed25519 (`OKP`) or P-256 (`EC`). */
export type SigningPublicJwk = { kty: 'OKP'; crv: 'Ed25519'; x: string } | { kty: 'EC'; crv: 'P-256'; x: string; y: string };

/** A registered request-signing key; its `id` is the `keyid` requests name. */
export interface SigningKeyView {
  /** the RFC 7638 JWK thumbprint (SHA-256, base64url): the key's fingerprint and the `keyid` of its signatures */
  id: string;
  name: string;
  algorithm: RequestSignatureAlgorithm;
  publicKey: SigningPublicJwk;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The answer to a key creation: the only time the secret (`key`) is ever returned. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

/** What the gateway needs to know about a presented key (looked up by the SHA-256 of the secret, hex). */
export interface ResolvedApiKey {
  keyId: string;
  applicationId: string;
  active: boolean;
  /** absent in entries of an earlier version: `off` */
  signedRequests?: SignedRequests;
  /** the public keys the key's requests may be signed with */
  signingKeys?: { id: string; algorithm: RequestSignatureAlgorithm; publicKey: SigningPublicJwk }[];
}

/**
 * A key's state as identity leaves it in the gateways' shared Redis cache (signed, at `apiKeyCacheKey`): the state
 * and until when (ms since the epoch) a gateway may take it, so an entry replayed by someone who can write to Redis
 * is no use once that time has passed. `null`: no such key.
 */
export type CachedApiKey = (ResolvedApiKey & { cachedUntil: number }) | null;

/** How far a gateway's clock may be behind identity's before a cache entry's `cachedUntil` is read as passed. */
export const API_KEY_CACHE_CLOCK_SKEW_MS = 5_000;

/**
 * The state a shared cache entry's text gives at `now`, with how much longer it may be used (ms), or `undefined` when
 * the gateway must ask identity instead: a key's state past its `cachedUntil`, or without one (identity of an earlier
 * release), or text that is not a state. An entry saying there is no such key is taken at any time (`Infinity`):
 * replaying it only refuses.
 */
export function freshCachedApiKey(text: string, now: number): { state: ResolvedApiKey | null; freshForMs: number } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null) {
    return { state: null, freshForMs: Infinity };
  }
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return undefined;
  }
  const { cachedUntil, ...state } = parsed as ResolvedApiKey & { cachedUntil?: unknown };
  const freshForMs = typeof cachedUntil === 'number' ? cachedUntil + API_KEY_CACHE_CLOCK_SKEW_MS - now : -1;
  return freshForMs >= 0 ? { state, freshForMs } : undefined;
}

export interface ProfileView {
  id: string;
  applicationId: string;
  createdAt: string;
}

export interface IssuedToken {
  jwt: string;
  expiresAt: string;
}

/** An EC P-256 public key as published in the JWKS (RFC 7517). */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

export interface Jwks {
  keys: PublicJwk[];
}

/**
 * Revocations the gateway enforces on tokens it verifies locally: a profile's tokens issued before `revokedBefore`
 * (epoch ms), console sessions signed out before they expired, and the profile tokens of deleted API keys.
 */
export interface RevocationList {
  profiles: ProfileRevocation[];
  sessions: SessionRevocation[];
  apiKeys: ApiKeyTokenRevocation[];
}

export interface ProfileRevocation {
  profileId: string;
  revokedBefore: number;
}

/** Where each revocation list goes on: the last id sent; a list that is complete is absent. */
export interface RevocationCursors {
  profiles?: string;
  sessions?: string;
  apiKeys?: string;
}

/** One page of the revocations a gateway loads: `next` null once every list is complete. */
export interface RevocationPage extends RevocationList {
  next: RevocationCursors | null;
}

/** Profile tokens issued by this API key (their `akid`) before `revokedBefore` (epoch ms) are refused. */
export interface ApiKeyTokenRevocation {
  apiKeyId: string;
  revokedBefore: number;
}

export interface SessionRevocation {
  sessionId: string;
  expiresAt: number;
}

export interface ConsoleSessionView {
  token: string;
  expiresAt: string;
}

/** The signed-in operator, their grants and second factors, and when the session ends. */
export type ConsoleSessionInfo = ConsoleAccountView;

/** The public addresses of the platform, as the console shows them in examples. */
export interface ConsoleEndpointsView {
  baseUrl: string;
  coreUrl: string;
}

/**
 * One line of a game's audit export (NDJSON): a stored audit row (`entry`: its columns as JSON, `table` naming its
 * table) and its place in its service's hash chain for the game: `hash` = SHA-256(`prevHash` ‖ RFC 8785 JSON of
 * `entry`), `seq` counting from 1. `npm run audit:verify` checks a file of them.
 */
export interface AuditExportLineView {
  /** the service whose chain holds the row: `identity` or `wallet` */
  chain: string;
  seq: number;
  prevHash: string;
  hash: string;
  entry: Record<string, unknown> & { id: string };
}

/** A page of a service's export: rows of one game in chain order after `afterSeq`, written in [`since`, `until`). */
export interface AuditExportRequest {
  gameId: string;
  afterSeq: number;
  limit: number;
  since?: string;
  until?: string;
}

export interface AuditEntryView {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/**
 * The longest a profile JWT lives (SPEC §4.1: 30 days): the most `duration` may ask for, and how long a revocation
 * can still refuse a token.
 */
export const PROFILE_TOKEN_MAX_SECONDS = 2_592_000;

/** Audiences of the JWTs identity issues; a token is accepted only where its audience is expected. */
export const PROFILE_AUDIENCE = 'game-wallet:profile';
export const CONSOLE_AUDIENCE = 'game-wallet:console';

/**
 * Claims of a profile JWT (SPEC §3). `jti` is a UUIDv7, so it also carries the issue time in milliseconds. `akid` is
 * the API key that issued the token, or the first token of the chain it was refreshed from (SPEC §11): deleting that
 * key with `revokeTokens=true` revokes them all.
 */
export interface ProfileClaims {
  iss: string;
  aud: typeof PROFILE_AUDIENCE;
  sub: string;
  app: string;
  iat: number;
  exp: number;
  jti: string;
  akid?: string;
}

/** Claims of a console token: `sub` is the operator, `jti` the session (signed out sessions are revoked). */
export interface ConsoleClaims {
  iss: string;
  aud: typeof CONSOLE_AUDIENCE;
  sub: string;
  iat: number;
  exp: number;
  jti: string;
}
