import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageEnvelope, PATTERNS, RequestOf, SigningPolicy, requireOperator } from '@game-wallet/contracts';
import { SigningPoliciesService } from './signing-policies.service';

/** A game's signing policy, for console operators (the gateway checks the game exists first). */
@Controller()
export class PoliciesController {
  constructor(private readonly policies: SigningPoliciesService) {}

  @MessagePattern(PATTERNS.wallet.getSigningPolicy)
  get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.policies.get'>>): Promise<SigningPolicy> {
    requireOperator(principal);
    return this.policies.forGame(payload.gameId);
  }

  @MessagePattern(PATTERNS.wallet.putSigningPolicy)
  put(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.policies.put'>>): Promise<SigningPolicy> {
    requireOperator(principal);
    return this.policies.put(payload.gameId, payload.policy);
  }
}
