import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

/** What a WebAuthn challenge was issued for: registering a passkey, a step-up, or one sign-in challenge. */
export type CeremonyPurpose = 'register' | 'step-up' | 'sign-in';

/**
 * WebAuthn challenges the server issued, kept in Redis until the authenticator's answer comes back: under the SHA-256
 * of the challenge, holding only what it was for (purpose, operator, and the session or sign-in challenge it belongs
 * to), for a short while, and taken once (GETDEL), so an answer can never be replayed.
 */
@Injectable()
export class WebAuthnChallenges {
  constructor(
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  async remember(challenge: string, purpose: CeremonyPurpose, operatorId: string, boundTo: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.key(challenge), this.value(purpose, operatorId, boundTo), 'EX', ttlSeconds).catch(unavailable);
  }

  /** Whether `challenge` was issued for this purpose, operator and session, taking it (true once only). */
  async take(challenge: string, purpose: CeremonyPurpose, operatorId: string, boundTo: string): Promise<boolean> {
    const stored = await this.redis.getdel(this.key(challenge)).catch(unavailable);
    return stored === this.value(purpose, operatorId, boundTo);
  }

  private key(challenge: string): string {
    return `${this.config.keyPrefix}:webauthn-challenge:${createHash('sha256').update(challenge).digest('hex')}`;
  }

  private value(purpose: CeremonyPurpose, operatorId: string, boundTo: string): string {
    return `${purpose}:${operatorId}:${boundTo}`;
  }
}

function unavailable(): never {
  throw new AppError('SERVICE_UNAVAILABLE', 'Second factors are unavailable right now (Redis)');
}
