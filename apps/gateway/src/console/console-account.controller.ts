import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Req } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { ConsoleAccountView, ConsoleSessionEntryView, PATTERNS, PasskeyView, RecoveryCodesView, TotpEnrollmentView } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { ServiceCalls } from '../services/service-calls';
import { parseBody } from '../validation';
import { changePasswordBody, confirmTotpBody, registerPasskeyBody, updateAccountBody } from './account-input';
import { PasswordSealer } from './password-sealer';
import { webAuthnOrigin } from './webauthn-origin';

/** Changing a password hashes twice in identity (scrypt), which queues like a sign-in. */
const PASSWORD_DEADLINE_MS = 15_000;

/** The signed-in operator's own account: name, password, sessions, second factors (any role). */
@Controller('v1/console/account')
@Authenticated({ console: true })
export class ConsoleAccountController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly passwords: PasswordSealer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Patch()
  update(@Body() body: unknown, @Caller() caller: ServiceCaller): Promise<ConsoleAccountView> {
    return this.services.call(PATTERNS.identity.updateAccount, parseBody(updateAccountBody, body), caller);
  }

  /** Ends the operator's other sessions. */
  @Put('password')
  async changePassword(@Body() body: unknown, @Caller() caller: ServiceCaller): Promise<{ endedSessions: number }> {
    const { currentPassword, newPassword } = parseBody(changePasswordBody, body);
    const [sealedCurrent, sealedNew] = await this.passwords.sealForOperator(caller, [currentPassword, newPassword]);
    return this.services.call(PATTERNS.identity.changePassword, { sealedCurrent, sealedNew }, caller, PASSWORD_DEADLINE_MS);
  }

  @Get('sessions')
  listSessions(@Caller() caller: ServiceCaller): Promise<{ items: ConsoleSessionEntryView[] }> {
    return this.services.call(PATTERNS.identity.listOwnSessions, {}, caller);
  }

  /** Every session of the operator's but this one. */
  @Delete('sessions')
  @HttpCode(204)
  async endOtherSessions(@Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.endOwnSessions, { others: true }, caller);
  }

  @Delete('sessions/:sessionId')
  @HttpCode(204)
  async endSession(@Param('sessionId') sessionId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.endOwnSessions, { sessionId }, caller);
  }

  @Post('totp')
  @HttpCode(200)
  startTotp(@Caller() caller: ServiceCaller): Promise<TotpEnrollmentView> {
    return this.services.call(PATTERNS.identity.startTotp, {}, caller);
  }

  @Post('totp/confirm')
  @HttpCode(200)
  confirmTotp(@Body() body: unknown, @Caller() caller: ServiceCaller): Promise<RecoveryCodesView> {
    return this.services.call(PATTERNS.identity.confirmTotp, parseBody(confirmTotpBody, body), caller);
  }

  @Delete('totp')
  @HttpCode(204)
  async removeTotp(@Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.removeTotp, {}, caller);
  }

  @Post('recovery-codes')
  @HttpCode(200)
  renewRecoveryCodes(@Caller() caller: ServiceCaller): Promise<RecoveryCodesView> {
    return this.services.call(PATTERNS.identity.renewRecoveryCodes, {}, caller);
  }

  @Post('passkeys/options')
  @HttpCode(200)
  passkeyOptions(@Caller() caller: ServiceCaller, @Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    return this.services.call(PATTERNS.identity.passkeyOptions, { webauthn: webAuthnOrigin(this.config, request) }, caller);
  }

  @Post('passkeys')
  registerPasskey(@Body() body: unknown, @Caller() caller: ServiceCaller, @Req() request: FastifyRequest): Promise<PasskeyView> {
    const { name, response } = parseBody(registerPasskeyBody, body);
    return this.services.call(PATTERNS.identity.registerPasskey, { name, response, webauthn: webAuthnOrigin(this.config, request) }, caller);
  }

  @Delete('passkeys/:passkeyId')
  @HttpCode(204)
  async removePasskey(@Param('passkeyId') passkeyId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.removePasskey, { passkeyId }, caller);
  }
}
