import { AppError, ERROR_STATUS, Principal, ResolvedApiKey } from '@game-wallet/contracts';
import { Logger } from '@nestjs/common';
import { BroadcastSubscriber, RedisStreamsClient, RejectionLog, RejectionReason, TransportKeys, signatureNonceKey } from '@game-wallet/transport';
import type { RedisTarget } from '@game-wallet/config';
import Redis from 'ioredis';
import { ApiKeyResolver } from './api-key-resolver';
import { AuthRequirement } from './authenticated.decorator';
import { PresentedCredentials } from './credentials';
import { RateDecision, RateLimit, RateLimiter } from './rate-limiter';
import { RequestSignatureVerifier } from './request-signature';
import { TokenVerifier } from './token-verifier';

export interface GatewayAuthOptions {
  transport: RedisStreamsClient;
  /** the gateway's keys: check what identity signs besides replies, shared API-key cache entries and revocation broadcasts */
  keys: TransportKeys;
  /** counts each of those refused for its signature or its sender (metrics) */
  onRejected?: (reason: RejectionReason) => void;
  /** the gateway's general Redis connection (shared cache, rate limits) */
  redis: Redis;
  redisUrl: RedisTarget;
  keyPrefix: string;
  jwtIssuer: string;
  apiKeyLimit: RateLimit;
  profileLimit: RateLimit;
  /** failed authentications (401s) allowed per client IP; past them the IP is answered 429 for a while */
  authFailuresPerIp: RateLimit;
  /** signing requests per wallet, whatever the credential (SPEC §11) */
  signingPerWallet: RateLimit;
}

/** Whether the key's setting names this route: every route (`all`), or those that sign or mint a JWT (`signing`). */
export function requiresSignature(key: ResolvedApiKey, requirement: AuthRequirement): boolean {
  switch (key.signedRequests) {
    case undefined:
    case 'off':
      return false;
    case 'signing':
      return requirement.signing === true;
    case 'all':
      return true;
    default:
      // A setting this gateway does not know (a newer identity's): the strictest reading.
      return true;
  }
}

/**
 * Everything the gateway needs to authenticate a request, made once per process and shared by its ports: API-key
 * resolution, local token verification, rate limits, and the broadcast subscription that keeps them current.
 */
export class GatewayAuth {
  readonly apiKeys: ApiKeyResolver;
  readonly tokens: TokenVerifier;
  private readonly limiter: RateLimiter;
  private readonly subscriber: BroadcastSubscriber;
  private readonly signatures: RequestSignatureVerifier;
  /** Client IPs over their failed-authentication budget, and until when (epoch ms). */
  private readonly blockedIps = new Map<string, number>();

  constructor(private readonly options: GatewayAuthOptions) {
    const rejections = (what: string) => new RejectionLog(new Logger(GatewayAuth.name), what, options.onRejected);
    this.apiKeys = new ApiKeyResolver(options.transport, options.redis, options.keyPrefix, options.keys, rejections('shared API-key cache entries'));
    this.tokens = new TokenVerifier(options.transport, options.jwtIssuer, options.keyPrefix, options.keys, rejections('revocation broadcasts'));
    this.limiter = new RateLimiter(options.redis, options.keyPrefix);
    // A nonce is taken once across every gateway (SET NX) and remembered as long as its signature could be accepted.
    this.signatures = new RequestSignatureVerifier(async (keyId, nonce, ttlSeconds) =>
      (await options.redis.set(signatureNonceKey(options.keyPrefix, keyId, nonce), '1', 'EX', ttlSeconds, 'NX')) === 'OK',
    );
    this.subscriber = new BroadcastSubscriber(options.redisUrl, 'gateway');
  }

  async start(): Promise<void> {
    await this.apiKeys.start(this.subscriber);
    await this.tokens.start(this.subscriber);
  }

  async close(): Promise<void> {
    this.tokens.close();
    await this.apiKeys.close();
    await this.subscriber.close();
  }

  /**
   * SPEC §2/§3 order: 401 (no, unknown or bad credential) → 403 (inactive key, a JWT where an API key is required).
   * When both headers are sent, `x-api-key` alone decides.
   */
  authenticate(credentials: PresentedCredentials, requirement: AuthRequirement): Principal | Promise<Principal> {
    if (requirement.console) {
      const token = credentials.bearer || credentials.consoleCookie;
      if (!token) {
        throw new AppError('UNAUTHENTICATED', 'A console session is required');
      }
      const { operatorId, sessionId } = this.tokens.verifyConsoleToken(token);
      return { kind: 'operator', operatorId, sessionId };
    }
    if (credentials.apiKey !== undefined) {
      const key = this.apiKeys.resolve(credentials.apiKey, credentials.connection);
      return key instanceof Promise ? key.then((resolved) => this.keyPrincipal(resolved, credentials, requirement)) : this.keyPrincipal(key, credentials, requirement);
    }
    if (credentials.bearer !== undefined) {
      if (credentials.bearer === '') {
        throw new AppError('INVALID_TOKEN', 'The Authorization header must be "Bearer <token>"');
      }
      const { profileId, applicationId, expiresAt, apiKeyId } = this.tokens.verifyProfileToken(credentials.bearer);
      if (!requirement.profile) {
        throw new AppError('API_KEY_REQUIRED', 'This operation needs an API key');
      }
      return apiKeyId === undefined
        ? { kind: 'profile', applicationId, profileId, tokenExpiresAt: expiresAt }
        : { kind: 'profile', applicationId, profileId, tokenExpiresAt: expiresAt, apiKeyId };
    }
    throw new AppError('UNAUTHENTICATED', 'An API key (x-api-key) or a bearer token is required');
  }

  /**
   * The principal of a resolved key: 401 for an unknown one, 403 for an inactive one, and for a key that requires
   * signed requests on this route, 401 unless the request carries a signature by one of its signing keys.
   */
  private keyPrincipal(key: ResolvedApiKey | null, credentials: PresentedCredentials, requirement: AuthRequirement): Principal | Promise<Principal> {
    if (!key) {
      throw new AppError('INVALID_API_KEY', 'The API key is not valid');
    }
    if (!key.active) {
      throw new AppError('API_KEY_INACTIVE', 'The API key is inactive');
    }
    const principal: Principal = { kind: 'apiKey', applicationId: key.applicationId, keyId: key.keyId };
    if (!requiresSignature(key, requirement)) {
      this.apiKeys.recordUse(key.keyId);
      return principal;
    }
    if (!credentials.message) {
      throw new AppError('SIGNATURE_REQUIRED', 'This API key requires signed requests');
    }
    return this.signatures.verify(credentials.message(), key).then((signingKeyId) => {
      this.apiKeys.recordUse(key.keyId, signingKeyId);
      return principal;
    });
  }

  /**
   * 429 while the client's IP is over its failed-authentication budget. Checked before the credential, so that past
   * the budget a guess learns nothing, right or wrong. `ipOf` is only asked when some IP is blocked.
   */
  refuseBlockedClient(ipOf: () => string): void {
    if (this.blockedIps.size === 0) {
      return;
    }
    const ip = ipOf();
    const until = this.blockedIps.get(ip);
    if (until === undefined) {
      return;
    }
    const waitMs = until - Date.now();
    if (waitMs <= 0) {
      this.blockedIps.delete(ip);
      return;
    }
    throw new AppError('RATE_LIMITED', 'Too many failed authentications from this address; slow down', Math.ceil(waitMs / 1000));
  }

  /**
   * Counts a failed authentication (a 401) against the client's IP, in Redis across replicas, and rethrows it; past
   * the budget the answer is 429 instead, and the IP is refused until its bucket has room again.
   */
  failedAuthentication(ip: string, error: unknown): Promise<never> {
    if (!(error instanceof AppError) || ERROR_STATUS[error.code] !== 401) {
      return Promise.reject(error);
    }
    return this.countFailure(ip, error);
  }

  /**
   * A public route's wrong guess at a secret it takes (an unknown invitation token: 404 `NOT_FOUND`) counts against the
   * client's IP as a failed authentication does; anything else is rethrown as it is.
   */
  failedGuess(ip: string, error: unknown): Promise<never> {
    return error instanceof AppError && error.code === 'NOT_FOUND' ? this.countFailure(ip, error) : Promise.reject(error);
  }

  private countFailure(ip: string, error: AppError): Promise<never> {
    return Promise.resolve(this.limiter.take(`auth-failures:${ip}`, this.options.authFailuresPerIp)).then((decision) => {
      if (decision.allowed) {
        throw error;
      }
      this.blockedIps.set(ip, Date.now() + decision.retryAfter * 1000);
      throw new AppError('RATE_LIMITED', 'Too many failed authentications from this address; slow down', decision.retryAfter);
    });
  }

  /** SPEC §11: signing requests per wallet, counted in Redis across replicas, besides the per-credential limits. */
  limitSigning(walletId: string): RateDecision | Promise<RateDecision> {
    return this.limiter.take(`sign:${walletId}`, this.options.signingPerWallet);
  }

  /** SPEC §7: per API key and per profile, counted in Redis across replicas. Operators are not limited here. */
  rateLimit(principal: Principal): RateDecision | Promise<RateDecision> | undefined {
    switch (principal.kind) {
      case 'apiKey':
        return this.limiter.take(`key:${principal.keyId}`, this.options.apiKeyLimit);
      case 'profile':
        return this.limiter.take(`profile:${principal.profileId}`, this.options.profileLimit);
      case 'operator':
      case 'system':
        return undefined;
    }
  }
}
