import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleAccountView, ConsoleSessionEntryView, PATTERNS, PasskeyView, RecoveryCodesView, TotpEnrollmentView, requireOperator } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { AccountFactorsService } from './account-factors.service';
import { AccountService } from './account.service';

/** The signed-in operator's own account: name, password, sessions and second factors. */
@Controller()
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly factors: AccountFactorsService,
  ) {}

  @Handles(PATTERNS.identity.updateAccount)
  update(@Payload() { payload, principal }: EnvelopeOf<'identity.account.update'>): Promise<ConsoleAccountView> {
    return this.account.update(requireOperator(principal), payload.displayName);
  }

  @Handles(PATTERNS.identity.changePassword)
  changePassword(@Payload() { payload, principal }: EnvelopeOf<'identity.account.password'>): Promise<{ endedSessions: number }> {
    return this.account.changePassword(requireOperator(principal), payload.sealedCurrent, payload.sealedNew);
  }

  @Handles(PATTERNS.identity.listOwnSessions)
  listSessions(@Payload() { principal }: EnvelopeOf<'identity.account.sessions.list'>): Promise<{ items: ConsoleSessionEntryView[] }> {
    return this.account.listSessions(requireOperator(principal));
  }

  @Handles(PATTERNS.identity.endOwnSessions)
  endSessions(@Payload() { payload, principal }: EnvelopeOf<'identity.account.sessions.end'>): Promise<{ ended: number }> {
    return this.account.endSessions(requireOperator(principal), payload);
  }

  @Handles(PATTERNS.identity.startTotp)
  startTotp(@Payload() { principal }: EnvelopeOf<'identity.account.totp.start'>): Promise<TotpEnrollmentView> {
    return this.factors.startTotp(requireOperator(principal));
  }

  @Handles(PATTERNS.identity.confirmTotp)
  confirmTotp(@Payload() { payload, principal }: EnvelopeOf<'identity.account.totp.confirm'>): Promise<RecoveryCodesView> {
    return this.factors.confirmTotp(requireOperator(principal), payload.code);
  }

  @Handles(PATTERNS.identity.removeTotp)
  async removeTotp(@Payload() { principal }: EnvelopeOf<'identity.account.totp.remove'>): Promise<{ removed: true }> {
    await this.factors.removeTotp(requireOperator(principal));
    return { removed: true };
  }

  @Handles(PATTERNS.identity.renewRecoveryCodes)
  renewRecoveryCodes(@Payload() { principal }: EnvelopeOf<'identity.account.recoveryCodes.renew'>): Promise<RecoveryCodesView> {
    return this.factors.renewRecoveryCodes(requireOperator(principal));
  }

  @Handles(PATTERNS.identity.passkeyOptions)
  passkeyOptions(@Payload() { payload, principal }: EnvelopeOf<'identity.account.passkeys.options'>): Promise<Record<string, unknown>> {
    return this.factors.passkeyOptions(requireOperator(principal), payload.webauthn);
  }

  @Handles(PATTERNS.identity.registerPasskey)
  registerPasskey(@Payload() { payload, principal }: EnvelopeOf<'identity.account.passkeys.register'>): Promise<PasskeyView> {
    return this.factors.registerPasskey(requireOperator(principal), payload.name, payload.response, payload.webauthn);
  }

  @Handles(PATTERNS.identity.removePasskey)
  async removePasskey(@Payload() { payload, principal }: EnvelopeOf<'identity.account.passkeys.remove'>): Promise<{ removed: true }> {
    await this.factors.removePasskey(requireOperator(principal), payload.passkeyId);
    return { removed: true };
  }
}
