import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AppError, ConsoleRole, ConsoleSessionInfo, ConsoleSessionView, PATTERNS, requireOperator, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { BoxKeyPair, IntegrityError, openSealed } from '@game-wallet/crypto';
import { ConsoleAccessService } from '../access/console-access.service';
import { OperatorsService } from './operators.service';
import { PASSWORD_BOX } from './password-box';

@Controller()
export class ConsoleController {
  constructor(
    private readonly operators: OperatorsService,
    private readonly access: ConsoleAccessService,
    @Inject(PASSWORD_BOX) private readonly passwordBox: BoxKeyPair,
  ) {}

  @Handles(PATTERNS.identity.passwordKey)
  passwordKey(@Payload() { principal }: EnvelopeOf<'identity.console.passwordKey'>): { publicKey: string } {
    requireSystem(principal);
    return { publicKey: this.passwordBox.publicKey };
  }

  @Handles(PATTERNS.identity.signIn)
  signIn(@Payload() { payload, principal }: EnvelopeOf<'identity.console.signIn'>): Promise<ConsoleSessionView> {
    requireSystem(principal);
    let passwordDigest: string;
    try {
      passwordDigest = openSealed(this.passwordBox, payload.sealedPassword, Buffer.from(payload.email)).toString('utf8');
    } catch (error) {
      if (error instanceof IntegrityError) {
        // Sealed to another key (identity's key-encryption key changed meanwhile): the gateway fetches the key again.
        throw new AppError('SERVICE_UNAVAILABLE', 'The sign-in could not be read; try again');
      }
      throw error;
    }
    return this.operators.signIn(payload.email, passwordDigest, payload.ip, payload.userAgent);
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
