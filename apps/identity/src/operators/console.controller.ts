import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleRole, ConsoleSessionInfo, ConsoleSessionView, PATTERNS, SecondFactorChallengeView, StepUpView, requireOperator, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { BoxKeyPair } from '@game-wallet/crypto';
import { ConsoleAccessService } from '../access/console-access.service';
import { OperatorsService } from './operators.service';
import { PASSWORD_BOX, openPassword } from './password-box';
import { SignInService } from './sign-in.service';
import { StepUpService } from './step-up.service';

@Controller()
export class ConsoleController {
  constructor(
    private readonly operators: OperatorsService,
    private readonly signIns: SignInService,
    private readonly stepUps: StepUpService,
    private readonly access: ConsoleAccessService,
    @Inject(PASSWORD_BOX) private readonly passwordBox: BoxKeyPair,
  ) {}

  @Handles(PATTERNS.identity.passwordKey)
  passwordKey(@Payload() { principal }: EnvelopeOf<'identity.console.passwordKey'>): { publicKey: string } {
    requireSystem(principal);
    return { publicKey: this.passwordBox.publicKey };
  }

  @Handles(PATTERNS.identity.signIn)
  signIn(@Payload() { payload, principal }: EnvelopeOf<'identity.console.signIn'>): Promise<ConsoleSessionView | SecondFactorChallengeView> {
    requireSystem(principal);
    const passwordDigest = openPassword(this.passwordBox, payload.sealedPassword, payload.email);
    return this.signIns.signIn(payload.email, passwordDigest, { ip: payload.ip, userAgent: payload.userAgent, webauthn: payload.webauthn });
  }

  @Handles(PATTERNS.identity.completeSignIn)
  completeSignIn(@Payload() { payload, principal }: EnvelopeOf<'identity.console.secondFactor'>): Promise<ConsoleSessionView> {
    requireSystem(principal);
    return this.signIns.completeSignIn(payload.challenge, payload.factor, { ip: payload.ip, userAgent: payload.userAgent, webauthn: payload.webauthn });
  }

  @Handles(PATTERNS.identity.stepUp)
  stepUp(@Payload() { payload, principal }: EnvelopeOf<'identity.console.stepUp'>): Promise<StepUpView> {
    return this.stepUps.stepUp(requireOperator(principal), payload);
  }

  @Handles(PATTERNS.identity.stepUpOptions)
  stepUpOptions(@Payload() { payload, principal }: EnvelopeOf<'identity.console.stepUpOptions'>): Promise<{ passkey: Record<string, unknown> | null }> {
    return this.stepUps.options(requireOperator(principal), payload.webauthn);
  }

  @Handles(PATTERNS.identity.getSession)
  session(@Payload() { principal }: EnvelopeOf<'identity.console.session'>): Promise<ConsoleSessionInfo> {
    return this.operators.session(requireOperator(principal));
  }

  /** The wallet and core services' question for their console patterns: may this operator do this (on this game)? */
  @Handles(PATTERNS.identity.authorize)
  async authorize(@Payload() { payload, principal }: EnvelopeOf<'identity.console.authorize'>): Promise<{ operatorId: string; roles: ConsoleRole[] }> {
    const caller = await this.access.require(principal, payload.permission, payload.gameId);
    return { operatorId: caller.operatorId, roles: this.access.acting(caller, payload.gameId ?? null).roles ?? [] };
  }

  @Handles(PATTERNS.identity.signOut)
  async signOut(@Payload() { principal }: EnvelopeOf<'identity.console.signOut'>): Promise<{ signedOut: true }> {
    await this.operators.signOut(requireOperator(principal));
    return { signedOut: true };
  }
}
