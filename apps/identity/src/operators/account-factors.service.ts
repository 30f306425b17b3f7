import { Injectable } from '@nestjs/common';
import { AppError, OperatorPrincipal, PasskeyView, RecoveryCodesView, TotpEnrollmentView, WebAuthnOrigin } from '@game-wallet/contracts';
import { ConsoleAccessService, ConsoleCaller, stepUpUntil } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { PasskeysService } from '../second-factors/passkeys.service';
import { SecondFactorsService } from '../second-factors/second-factors.service';
import { OperatorEntity } from './entities/operator.entity';
import { OperatorsRepository } from './operators.repository';

/**
 * The operator's own second factors: TOTP, recovery codes, passkeys. Adding or removing one, and new recovery codes,
 * need a fresh second factor (step-up; for an operator without one, the password): a stolen session alone can neither
 * take a factor away nor add one of the thief's, which would lock the operator out of their own account.
 */
@Injectable()
export class AccountFactorsService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly factors: SecondFactorsService,
    private readonly passkeys: PasskeysService,
    private readonly access: ConsoleAccessService,
    private readonly audit: AuditService,
  ) {}

  async startTotp(principal: OperatorPrincipal): Promise<TotpEnrollmentView> {
    const { operator } = await this.steppedUp(principal);
    return this.factors.startTotp(operator);
  }

  async confirmTotp(principal: OperatorPrincipal, code: string): Promise<RecoveryCodesView> {
    const { caller, operator } = await this.steppedUp(principal);
    const codes = await this.factors.confirmTotp(operator, code);
    await this.record(caller, 'operator.second_factor_added', { method: 'totp' });
    return codes;
  }

  async removeTotp(principal: OperatorPrincipal): Promise<void> {
    const { caller } = await this.steppedUp(principal);
    await this.factors.removeTotp(caller.operatorId);
    await this.record(caller, 'operator.second_factor_removed', { method: 'totp' });
  }

  async renewRecoveryCodes(principal: OperatorPrincipal): Promise<RecoveryCodesView> {
    const { caller, operator } = await this.steppedUp(principal);
    const codes = await this.factors.renewRecoveryCodes(operator);
    await this.record(caller, 'operator.recovery_codes_renewed', {});
    return codes;
  }

  async passkeyOptions(principal: OperatorPrincipal, webauthn: WebAuthnOrigin): Promise<Record<string, unknown>> {
    const { caller } = await this.steppedUp(principal);
    return this.passkeys.registrationOptions(caller, caller.sessionId, webauthn);
  }

  async registerPasskey(principal: OperatorPrincipal, name: string, response: Record<string, unknown>, webauthn: WebAuthnOrigin): Promise<PasskeyView> {
    const { caller } = await this.steppedUp(principal);
    const passkey = await this.passkeys.register(caller, caller.sessionId, name, response, webauthn);
    await this.record(caller, 'operator.second_factor_added', { method: 'passkey', passkeyId: passkey.id, name: passkey.name });
    return passkey;
  }

  async removePasskey(principal: OperatorPrincipal, passkeyId: string): Promise<void> {
    const { caller } = await this.steppedUp(principal);
    const removed = await this.passkeys.remove(caller.operatorId, passkeyId);
    await this.record(caller, 'operator.second_factor_removed', { method: 'passkey', passkeyId: removed.id, name: removed.name });
  }

  /** The caller and their operator record, once a second factor (or the password, without one) was given in the last 5 minutes. */
  private async steppedUp(principal: OperatorPrincipal): Promise<{ caller: ConsoleCaller; operator: OperatorEntity }> {
    const caller = await this.access.current(principal);
    if (stepUpUntil(caller) === null) {
      throw new AppError('STEP_UP_REQUIRED', 'Confirm it is you: give your second factor again');
    }
    const operator = await this.operators.findById(caller.operatorId);
    if (!operator) {
      throw new AppError('INVALID_TOKEN', 'This console session has ended; sign in again');
    }
    return { caller, operator };
  }

  private record(caller: ConsoleCaller, action: string, details: Record<string, unknown>): Promise<void> {
    return this.audit.record({ applicationId: null, principal: this.access.acting(caller, null), action, target: `operator:${caller.operatorId}`, details });
  }
}
