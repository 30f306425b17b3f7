import { Inject, Injectable } from '@nestjs/common';
import { AppError, RecoveryCodesView, SecondFactorInput, TotpEnrollmentView, WebAuthnOrigin } from '@game-wallet/contracts';
import { OperatorEntity } from '../operators/entities/operator.entity';
import { PasskeysService } from './passkeys.service';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { SecondFactorsRepository } from './second-factors.repository';
import { matchTotp, newTotpSecret, totpUri } from './totp';
import { TOTP_SECRET_KEY, openTotpSecret, sealTotpSecret } from './totp-secret-key';
import { CeremonyPurpose } from './webauthn-challenges';

/** How a second factor was given, as the audit trail and the sign-in challenge name it. */
export type SecondFactorMethod = 'totp' | 'recovery-code' | 'passkey';

/** The clock TOTP codes are checked against: `Date.now`, replaced in tests by a fixed one. */
export const TOTP_CLOCK = Symbol('TOTP_CLOCK');

/** What TOTP issuer authenticator apps show beside the operator's e-mail. */
const TOTP_ISSUER = 'Game Wallet console';

/** Where an assertion's challenge must have been issued: for sign-in (bound to one sign-in challenge) or a session's step-up. */
export interface CeremonyContext {
  purpose: Exclude<CeremonyPurpose, 'register'>;
  boundTo: string;
  webauthn: WebAuthnOrigin;
}

/**
 * An operator's second factors: TOTP (RFC 6238, secret sealed at rest, each time step accepted once), ten single-use
 * recovery codes stored hashed, and passkeys ({@link PasskeysService}); and checking any of them.
 */
@Injectable()
export class SecondFactorsService {
  constructor(
    private readonly repository: SecondFactorsRepository,
    private readonly passkeys: PasskeysService,
    @Inject(TOTP_SECRET_KEY) private readonly totpKey: Buffer,
    /** The clock TOTP codes are checked against (a fixed one in tests). */
    @Inject(TOTP_CLOCK) private readonly now: () => number,
  ) {}

  /** Which second factors the operator has. */
  async methods(operator: Pick<OperatorEntity, 'id' | 'totpSecret'>): Promise<SecondFactorMethod[]> {
    const passkeys = await this.passkeys.list(operator.id);
    const methods: SecondFactorMethod[] = [];
    if (operator.totpSecret !== null) {
      methods.push('totp');
    }
    if (passkeys.length > 0) {
      methods.push('passkey');
    }
    if (methods.length > 0) {
      methods.push('recovery-code');
    }
    return methods;
  }

  /** Starts setting up TOTP: a new secret, pending (sealed) until a code confirms it. Replaces a pending one. */
  async startTotp(operator: Pick<OperatorEntity, 'id' | 'email' | 'totpSecret'>): Promise<TotpEnrollmentView> {
    if (operator.totpSecret !== null) {
      throw new AppError('FORBIDDEN', 'TOTP is set up already: remove it first to set up another authenticator');
    }
    const secret = newTotpSecret();
    await this.repository.setPendingTotp(operator.id, sealTotpSecret(this.totpKey, operator.id, secret));
    return { secret, uri: totpUri(secret, TOTP_ISSUER, operator.email) };
  }

  /** Confirms the pending secret with a code from it: TOTP is on, and ten new recovery codes are answered (shown once). */
  async confirmTotp(operator: Pick<OperatorEntity, 'id' | 'totpSecret' | 'totpPendingSecret'>, code: string): Promise<RecoveryCodesView> {
    if (operator.totpSecret !== null) {
      throw new AppError('FORBIDDEN', 'TOTP is set up already');
    }
    if (operator.totpPendingSecret === null) {
      throw new AppError('NOT_FOUND', 'No TOTP setup was started: start one first');
    }
    const step = matchTotp(openTotpSecret(this.totpKey, operator.id, operator.totpPendingSecret), code, this.now());
    if (step === null) {
      throw new AppError('INVALID_CREDENTIALS', 'The code does not match: check the time on your device and try the next code');
    }
    const recoveryCodes = newRecoveryCodes();
    if (!(await this.repository.enableTotp(operator.id, operator.totpPendingSecret, step, recoveryCodes.map(hashRecoveryCode)))) {
      throw new AppError('NOT_FOUND', 'This TOTP setup was replaced meanwhile: start again');
    }
    return { recoveryCodes };
  }

  async removeTotp(operatorId: string): Promise<void> {
    if (!(await this.repository.removeTotp(operatorId))) {
      throw new AppError('NOT_FOUND', 'TOTP is not set up');
    }
  }

  /** Ten new recovery codes, replacing the old ones (used or not); only for an operator with a second factor. */
  async renewRecoveryCodes(operator: Pick<OperatorEntity, 'id' | 'totpSecret'>): Promise<RecoveryCodesView> {
    if ((await this.methods(operator)).length === 0) {
      throw new AppError('FORBIDDEN', 'Set up a second factor first: recovery codes stand in for it');
    }
    const recoveryCodes = newRecoveryCodes();
    await this.repository.replaceRecoveryCodes(operator.id, recoveryCodes.map(hashRecoveryCode));
    return { recoveryCodes };
  }

  /**
   * Checks a second factor of the operator's; answers how it was given, or null when it is wrong (a TOTP code of a
   * step accepted before, a used recovery code and a replayed assertion are wrong). Spends what it accepts.
   */
  async verify(operator: Pick<OperatorEntity, 'id' | 'totpSecret'>, factor: SecondFactorInput, ceremony: CeremonyContext): Promise<SecondFactorMethod | null> {
    if ('totp' in factor) {
      if (operator.totpSecret === null) {
        return null;
      }
      const step = matchTotp(openTotpSecret(this.totpKey, operator.id, operator.totpSecret), factor.totp, this.now());
      return step !== null && (await this.repository.takeTotpStep(operator.id, step)) ? 'totp' : null;
    }
    if ('recoveryCode' in factor) {
      return (await this.repository.useRecoveryCode(operator.id, hashRecoveryCode(factor.recoveryCode))) ? 'recovery-code' : null;
    }
    if ('passkey' in factor) {
      return (await this.passkeys.verify(operator.id, ceremony.purpose, ceremony.boundTo, factor.passkey, ceremony.webauthn)) ? 'passkey' : null;
    }
    return null;
  }
}
