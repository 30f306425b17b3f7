import { Inject, Injectable } from '@nestjs/common';
import { AppError, OperatorPrincipal, STEP_UP_WINDOW_MS, SecondFactorInput, StepUpView, WebAuthnOrigin } from '@game-wallet/contracts';
import { BoxKeyPair } from '@game-wallet/crypto';
import { ConsoleAccessService, ConsoleCaller, hasSecondFactor } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { PasskeysService } from '../second-factors/passkeys.service';
import { SecondFactorMethod, SecondFactorsService } from '../second-factors/second-factors.service';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { OperatorsRepository } from './operators.repository';
import { PASSWORD_BOX, openPassword } from './password-box';
import { OwnPassword } from './own-password';
import { SignInLimiter } from './sign-in-limiter';

/**
 * Step-up: a second factor given again on a signed-in session (or, for an operator without one, the password), which
 * makes the step-up actions of the next 5 minutes possible. Failures count per session (5 in 5 minutes) and per
 * client address; a password counts as a sign-in does (per e-mail and address).
 */
@Injectable()
export class StepUpService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly factors: SecondFactorsService,
    private readonly passkeys: PasskeysService,
    private readonly limiter: SignInLimiter,
    private readonly password: OwnPassword,
    private readonly access: ConsoleAccessService,
    private readonly audit: AuditService,
    @Inject(PASSWORD_BOX) private readonly passwordBox: BoxKeyPair,
  ) {}

  /** WebAuthn request options for a step-up with a passkey (null when the operator has none). */
  async options(principal: OperatorPrincipal, webauthn: WebAuthnOrigin): Promise<{ passkey: Record<string, unknown> | null }> {
    const caller = await this.access.current(principal);
    return { passkey: await this.passkeys.authenticationOptions(caller.operatorId, 'step-up', caller.sessionId, webauthn) };
  }

  async stepUp(principal: OperatorPrincipal, input: { factor?: SecondFactorInput; sealedPassword?: string; webauthn: WebAuthnOrigin }): Promise<StepUpView> {
    const caller = await this.access.current(principal);
    const ip = principal.ip ?? 'unknown';
    let method: SecondFactorMethod | 'password';
    if (input.sealedPassword !== undefined && input.factor === undefined) {
      method = await this.checkPassword(caller, ip, input.sealedPassword);
    } else if (input.factor !== undefined && input.sealedPassword === undefined) {
      method = await this.checkFactor(caller, ip, input.factor, input.webauthn);
    } else {
      throw new AppError('VALIDATION_FAILED', 'Give exactly one of totp, recoveryCode, passkey or password');
    }
    const now = new Date();
    await this.sessions.markSecondFactor(caller.operatorId, caller.sessionId, now);
    await this.audit.record({ applicationId: null, principal: this.access.acting(caller, null), action: 'operator.stepped_up', target: `operator:${caller.operatorId}`, details: { method } });
    return { stepUpUntil: new Date(now.getTime() + STEP_UP_WINDOW_MS).toISOString() };
  }

  private async checkFactor(caller: ConsoleCaller, ip: string, factor: SecondFactorInput, webauthn: WebAuthnOrigin): Promise<SecondFactorMethod> {
    const counter = this.limiter.stepUpCounter(caller.sessionId);
    await this.limiter.reserveSecondFactor(ip, counter);
    let method: SecondFactorMethod | null;
    try {
      const operator = await this.operators.findById(caller.operatorId);
      method = operator ? await this.factors.verify(operator, factor, { purpose: 'step-up', boundTo: caller.sessionId, webauthn }) : null;
    } catch (error) {
      await this.limiter.releaseSecondFactor(ip, counter);
      throw error;
    }
    if (method === null) {
      throw new AppError('INVALID_CREDENTIALS', 'Wrong second factor');
    }
    await this.limiter.releaseSecondFactor(ip, counter);
    return method;
  }

  /** The password stands in for a second factor only for an operator who has none. */
  private async checkPassword(caller: ConsoleCaller, ip: string, sealedPassword: string): Promise<'password'> {
    if (hasSecondFactor(caller)) {
      throw new AppError('INVALID_CREDENTIALS', 'Give your second factor: with one set up, the password is not enough');
    }
    const digest = openPassword(this.passwordBox, sealedPassword, caller.email);
    await this.password.check(caller, ip, digest, 'Wrong password');
    return 'password';
  }
}
