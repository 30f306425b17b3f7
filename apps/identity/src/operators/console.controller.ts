import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConsoleSessionInfo, ConsoleSessionView, MessageEnvelope, PATTERNS, RequestOf, requireOperator, requireSystem } from '@game-wallet/contracts';
import { OperatorsService } from './operators.service';

@Controller()
export class ConsoleController {
  constructor(private readonly operators: OperatorsService) {}

  @MessagePattern(PATTERNS.identity.signIn)
  signIn(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.console.signIn'>>): Promise<ConsoleSessionView> {
    requireSystem(principal);
    return this.operators.signIn(payload.email, payload.passwordDigest, payload.ip);
  }

  @MessagePattern(PATTERNS.identity.getSession)
  session(@Payload() { principal }: MessageEnvelope<RequestOf<'identity.console.session'>>): Promise<ConsoleSessionInfo> {
    return this.operators.session(requireOperator(principal));
  }

  @MessagePattern(PATTERNS.identity.signOut)
  async signOut(@Payload() { principal }: MessageEnvelope<RequestOf<'identity.console.signOut'>>): Promise<{ signedOut: true }> {
    await this.operators.signOut(requireOperator(principal));
    return { signedOut: true };
  }
}
