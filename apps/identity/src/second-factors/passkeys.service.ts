import { Injectable, Logger } from '@nestjs/common';
import { AppError, PasskeyView, WebAuthnOrigin, isUuid } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { PasskeyEntity } from '../operators/entities/passkey.entity';
import { toPasskeyView } from '../operators/operators.service';
import { SecondFactorsRepository } from './second-factors.repository';
import { CeremonyPurpose, WebAuthnChallenges } from './webauthn-challenges';

/** How long the browser may take (WebAuthn's `timeout`), and how long the server keeps the challenge a little longer. */
const CEREMONY_TIMEOUT_MS = 60_000;
const CHALLENGE_TTL_SECONDS = 120;
/** Passkeys one operator may register. */
const MAX_PASSKEYS = 20;
const RP_NAME = 'Game Wallet console';

/** Who a passkey is for: the operator, as the authenticator shows them. */
export interface PasskeyHolder {
  operatorId: string;
  email: string;
  displayName: string;
}

/**
 * WebAuthn passkeys as a second factor (SimpleWebAuthn): registration, and assertions for sign-in and step-up. The
 * origin and relying-party id are those the gateway serves the console at; user verification is preferred, not
 * required (the passkey is the second factor, the password the first).
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger(PasskeysService.name);

  constructor(
    private readonly repository: SecondFactorsRepository,
    private readonly challenges: WebAuthnChallenges,
  ) {}

  async registrationOptions(holder: PasskeyHolder, sessionId: string, webauthn: WebAuthnOrigin): Promise<Record<string, unknown>> {
    const existing = await this.repository.listPasskeys(holder.operatorId);
    if (existing.length >= MAX_PASSKEYS) {
      throw new AppError('FORBIDDEN', `At most ${MAX_PASSKEYS} passkeys an operator; remove one first`);
    }
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: webauthn.rpId,
      userName: holder.email,
      userID: Buffer.from(holder.operatorId.replace(/-/g, ''), 'hex'),
      userDisplayName: holder.displayName || holder.email,
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await this.challenges.remember(options.challenge, 'register', holder.operatorId, sessionId, CHALLENGE_TTL_SECONDS);
    return options as unknown as Record<string, unknown>;
  }

  /** Verifies the authenticator's answer to {@link registrationOptions} (same session) and keeps the passkey. */
  async register(holder: PasskeyHolder, sessionId: string, name: string, response: Record<string, unknown>, webauthn: WebAuthnOrigin): Promise<PasskeyView> {
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: (challenge) => this.challenges.take(challenge, 'register', holder.operatorId, sessionId),
        expectedOrigin: webauthn.origin,
        expectedRPID: webauthn.rpId,
        requireUserVerification: false,
      });
    } catch (error) {
      throw refused(error, 'The passkey could not be verified: ask for new options and try again');
    }
    if (!verification.verified) {
      throw new AppError('VALIDATION_FAILED', 'The passkey could not be verified: ask for new options and try again');
    }
    const { credential } = verification.registrationInfo;
    const passkey: PasskeyEntity = {
      id: newId(),
      operatorId: holder.operatorId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: String(credential.counter),
      transports: (credential.transports ?? []).slice(0, 8),
      name,
      createdAt: new Date(),
      lastUsedAt: null,
    };
    if (!(await this.repository.insertPasskey(passkey))) {
      throw new AppError('VALIDATION_FAILED', 'This passkey is registered already');
    }
    return toPasskeyView(passkey);
  }

  /** Request options for the operator's passkeys (null when they have none); the challenge is bound to `boundTo`. */
  async authenticationOptions(
    operatorId: string,
    purpose: Exclude<CeremonyPurpose, 'register'>,
    boundTo: string,
    webauthn: WebAuthnOrigin,
    ttlSeconds = CHALLENGE_TTL_SECONDS,
  ): Promise<Record<string, unknown> | null> {
    const passkeys = await this.repository.listPasskeys(operatorId);
    if (passkeys.length === 0) {
      return null;
    }
    const options = await generateAuthenticationOptions({
      rpID: webauthn.rpId,
      allowCredentials: passkeys.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      userVerification: 'preferred',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await this.challenges.remember(options.challenge, purpose, operatorId, boundTo, ttlSeconds);
    return options as unknown as Record<string, unknown>;
  }

  /** Whether `response` is a valid assertion by one of the operator's passkeys to a challenge issued for `purpose`/`boundTo`. */
  async verify(
    operatorId: string,
    purpose: Exclude<CeremonyPurpose, 'register'>,
    boundTo: string,
    response: Record<string, unknown>,
    webauthn: WebAuthnOrigin,
  ): Promise<boolean> {
    const assertion = response as unknown as AuthenticationResponseJSON;
    const passkey = typeof assertion.id === 'string' ? await this.repository.findPasskey(operatorId, assertion.id) : null;
    if (!passkey) {
      return false;
    }
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: (challenge) => this.challenges.take(challenge, purpose, operatorId, boundTo),
        expectedOrigin: webauthn.origin,
        expectedRPID: webauthn.rpId,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports as never },
        requireUserVerification: false,
      });
      return verified && (await this.repository.notePasskeyUse(operatorId, passkey.id, passkey.counter, authenticationInfo.newCounter));
    } catch (error) {
      if (error instanceof AppError) {
        throw error;
      }
      this.logger.debug(`A passkey assertion was refused: ${error instanceof Error ? error.message : 'unreadable'}`);
      return false;
    }
  }

  async remove(operatorId: string, passkeyId: string): Promise<PasskeyEntity> {
    const removed = isUuid(passkeyId) ? await this.repository.removePasskey(operatorId, passkeyId) : null;
    if (!removed) {
      throw new AppError('NOT_FOUND', 'No passkey with this id');
    }
    return removed;
  }

  list(operatorId: string): Promise<PasskeyEntity[]> {
    return this.repository.listPasskeys(operatorId);
  }
}

function refused(error: unknown, message: string): AppError {
  return error instanceof AppError ? error : new AppError('VALIDATION_FAILED', message);
}
