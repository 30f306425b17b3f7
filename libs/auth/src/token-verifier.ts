import { Logger } from '@nestjs/common';
import {
  AppError,
  BROADCAST,
  CONSOLE_AUDIENCE,
  Jwks,
  PATTERNS,
  PROFILE_AUDIENCE,
  PROFILE_TOKEN_MAX_SECONDS,
  RevocationCursors,
  RevocationList,
  broadcastChannel,
  isUuid,
} from '@game-wallet/contracts';
import { decodeJwt, verifyEs256 } from '@game-wallet/crypto';
import { BroadcastSubscriber, RedisStreamsClient, RejectionLog, TransportKeys, signedListener } from '@game-wallet/transport';
import { KeyObject, createPublicKey } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface VerifiedProfileToken {
  profileId: string;
  applicationId: string;
  expiresAt: number;
  apiKeyId?: string;
}

export interface VerifiedConsoleToken {
  operatorId: string;
  sessionId: string;
}

interface CheckedToken {
  kid: string;
  claims: Record<string, unknown>;
}

const REFRESH_INTERVAL_MS = 5 * 60_000;
/** Revocations are reloaded this often, so one whose broadcast was missed still takes effect. */
const REVOCATIONS_RELOAD_MS = 30_000;
/** A revocation older than the longest a profile token lives refuses nothing any more. */
const MAX_TOKEN_LIFETIME_MS = PROFILE_TOKEN_MAX_SECONDS * 1000;
const REVOCATIONS_PAGE = 1000;
const UNKNOWN_KID_REFRESH_MS = 5_000;

/** The issue time of a token in ms: from its UUIDv7 `jti` (48-bit ms timestamp), else from `iat`. */
export function issuedAtMs(claims: Record<string, unknown>): number {
  const jti = claims.jti;
  if (typeof jti === 'string' && isUuid(jti) && jti[14] === '7') {
    return parseInt(jti.slice(0, 8) + jti.slice(9, 13), 16);
  }
  return typeof claims.iat === 'number' ? claims.iat * 1000 : 0;
}

/**
 * Verifies profile JWTs and console tokens locally: signature against the JWKS of identity (loaded at start, reloaded
 * on rotation broadcasts, on an unknown kid and every 5 minutes), audience, issuer, expiry, then revocations (loaded
 * at start page by page, kept current by broadcast, reloaded after a broadcast reconnect and every 30 s, so a missed
 * broadcast heals by itself; entries that can no longer refuse anything are dropped). Until both are loaded, tokens are not
 * accepted (503): a revoked token is never let through for want of the list. A signature, once checked, is
 * remembered for the token (expiry and revocation are checked on every use).
 */
export class TokenVerifier {
  private readonly logger = new Logger(TokenVerifier.name);
  private keys = new Map<string, KeyObject>();
  private jwks: Jwks = { keys: [] };
  private readonly revokedProfiles = new Map<string, number>();
  private readonly revokedSessions = new Map<string, number>();
  private readonly revokedApiKeys = new Map<string, number>();
  private readonly checked = new LRUCache<string, CheckedToken>({ max: 50_000, ttl: 10 * 60_000 });
  private keysLoaded = false;
  private revocationsLoaded = false;
  private lastKidRefresh = 0;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly transport: RedisStreamsClient,
    private readonly issuer: string,
    private readonly prefix: string,
    private readonly transportKeys: TransportKeys,
    private readonly rejections: RejectionLog,
  ) {}

  /** Subscribes to key rotations and revocations, then loads both (retrying in the background until identity answers). */
  async start(subscriber: BroadcastSubscriber): Promise<void> {
    await subscriber.on(broadcastChannel(this.prefix, BROADCAST.signingKeys), () => void this.loadKeys());
    // A revocation counts only when identity signed it for this channel: a forged one could shut anyone out, and no
    // other app's keys can make one.
    const revocations = broadcastChannel(this.prefix, BROADCAST.revocations);
    await subscriber.on(revocations, signedListener(this.transportKeys, 'identity', revocations, this.rejections, (text) => this.applyRevocations(JSON.parse(text) as RevocationList)));
    subscriber.onResync(() => {
      void this.loadKeys();
      void this.loadRevocations();
    });
    this.timers.push(setInterval(() => void this.loadKeys(), REFRESH_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.loadRevocations(), REVOCATIONS_RELOAD_MS));
    this.timers.push(
      setInterval(() => {
        if (!this.keysLoaded) {
          void this.loadKeys();
        }
        if (!this.revocationsLoaded) {
          void this.loadRevocations();
        }
      }, 1000),
    );
    this.timers.forEach((timer) => timer.unref());
    await Promise.all([this.loadKeys(), this.loadRevocations()]);
  }

  close(): void {
    this.timers.forEach(clearInterval);
  }

  get ready(): boolean {
    return this.keysLoaded && this.revocationsLoaded;
  }

  /** The published keys, as served at `/v1/.well-known/jwks.json`. */
  publicJwks(): Jwks {
    return this.jwks;
  }

  verifyProfileToken(token: string): VerifiedProfileToken {
    const claims = this.verify(token, PROFILE_AUDIENCE);
    if (typeof claims.sub !== 'string' || typeof claims.app !== 'string') {
      throw new AppError('INVALID_TOKEN', 'The token is malformed');
    }
    const apiKeyId = typeof claims.akid === 'string' ? claims.akid : undefined;
    const revokedBefore = Math.max(this.revokedProfiles.get(claims.sub) ?? 0, apiKeyId === undefined ? 0 : (this.revokedApiKeys.get(apiKeyId) ?? 0));
    if (revokedBefore > 0 && issuedAtMs(claims) < revokedBefore) {
      throw new AppError('TOKEN_REVOKED', 'The token has been revoked');
    }
    return { profileId: claims.sub, applicationId: claims.app, expiresAt: claims.exp as number, apiKeyId };
  }

  verifyConsoleToken(token: string): VerifiedConsoleToken {
    const claims = this.verify(token, CONSOLE_AUDIENCE);
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string') {
      throw new AppError('INVALID_TOKEN', 'The token is malformed');
    }
    if (this.revokedSessions.has(claims.jti)) {
      throw new AppError('TOKEN_REVOKED', 'This console session has been signed out');
    }
    return { operatorId: claims.sub, sessionId: claims.jti };
  }

  private verify(token: string, audience: string): Record<string, unknown> {
    if (!this.ready) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Token verification is not ready yet');
    }
    let checked = this.checked.get(token);
    if (checked === undefined || !this.keys.has(checked.kid)) {
      checked = this.checkSignature(token);
      this.checked.set(token, checked);
    }
    const { claims } = checked;
    if (claims.aud !== audience || claims.iss !== this.issuer) {
      throw new AppError('INVALID_TOKEN', 'The token is not valid here');
    }
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || typeof claims.jti !== 'string') {
      throw new AppError('INVALID_TOKEN', 'The token is malformed');
    }
    if (claims.exp * 1000 <= Date.now()) {
      throw new AppError('TOKEN_EXPIRED', 'The token has expired');
    }
    return claims;
  }

  private checkSignature(token: string): CheckedToken {
    const decoded = decodeJwt(token);
    if (!decoded || decoded.header.alg !== 'ES256' || typeof decoded.header.kid !== 'string') {
      throw new AppError('INVALID_TOKEN', 'The token is malformed');
    }
    const key = this.keys.get(decoded.header.kid);
    if (!key) {
      this.refreshForUnknownKid();
      throw new AppError('INVALID_TOKEN', 'The token is signed by an unknown key');
    }
    if (!verifyEs256(decoded, key)) {
      throw new AppError('INVALID_TOKEN', 'The token signature is not valid');
    }
    return { kid: decoded.header.kid, claims: decoded.claims };
  }

  private refreshForUnknownKid(): void {
    const now = Date.now();
    if (now - this.lastKidRefresh > UNKNOWN_KID_REFRESH_MS) {
      this.lastKidRefresh = now;
      void this.loadKeys();
    }
  }

  private async loadKeys(): Promise<void> {
    try {
      const jwks = await this.transport.call(PATTERNS.identity.getJwks, { payload: {}, principal: { kind: 'system' } }, { timeoutMs: 2000 });
      this.keys = new Map(jwks.keys.map((jwk) => [jwk.kid, createPublicKey({ key: { ...jwk }, format: 'jwk' })]));
      this.jwks = jwks;
      this.keysLoaded = true;
    } catch (error) {
      this.logger.warn(`Could not load the signing keys from identity: ${String(error)}`);
    }
  }

  /** Loads every revocation, page by page, merging into what broadcasts brought meanwhile (never replacing it). */
  private async loadRevocations(): Promise<void> {
    try {
      let after: RevocationCursors | undefined;
      do {
        const page = await this.transport.call(
          PATTERNS.identity.listRevocations,
          { payload: after === undefined ? { limit: REVOCATIONS_PAGE } : { after, limit: REVOCATIONS_PAGE }, principal: { kind: 'system' } },
          { timeoutMs: 2000 },
        );
        this.applyRevocations(page);
        after = page.next ?? undefined;
      } while (after !== undefined);
      this.revocationsLoaded = true;
      this.pruneRevocations();
    } catch (error) {
      this.logger.warn(`Could not load token revocations from identity: ${String(error)}`);
    }
  }

  /** Drops what can no longer refuse a token: revocations older than the longest token life, ended sessions. */
  private pruneRevocations(): void {
    const now = Date.now();
    for (const revoked of [this.revokedProfiles, this.revokedApiKeys]) {
      for (const [id, revokedBefore] of revoked) {
        if (revokedBefore < now - MAX_TOKEN_LIFETIME_MS) {
          revoked.delete(id);
        }
      }
    }
    for (const [sessionId, expiresAt] of this.revokedSessions) {
      if (expiresAt <= now) {
        this.revokedSessions.delete(sessionId);
      }
    }
  }

  private applyRevocations(list: RevocationList): void {
    for (const { profileId, revokedBefore } of list.profiles) {
      this.revokedProfiles.set(profileId, Math.max(revokedBefore, this.revokedProfiles.get(profileId) ?? 0));
    }
    for (const { apiKeyId, revokedBefore } of list.apiKeys ?? []) {
      this.revokedApiKeys.set(apiKeyId, Math.max(revokedBefore, this.revokedApiKeys.get(apiKeyId) ?? 0));
    }
    const now = Date.now();
    for (const { sessionId, expiresAt } of list.sessions) {
      if (expiresAt > now) {
        this.revokedSessions.set(sessionId, expiresAt);
      }
    }
  }
}
