import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PATTERNS, SigningPolicy, requireOperator } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { SigningPoliciesService } from './signing-policies.service';

/** A game's signing policy, for console operators (the gateway checks the game exists first). */
@Controller()
export class PoliciesController {
  constructor(private readonly policies: SigningPoliciesService) {}

  @Handles(PATTERNS.wallet.getSigningPolicy)
  get(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.get'>): Promise<SigningPolicy> {
    requireOperator(principal);
    return this.policies.forGame(payload.gameId);
  }

  @Handles(PATTERNS.wallet.putSigningPolicy)
  put(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.put'>): Promise<SigningPolicy> {
    return this.policies.put(payload.gameId, payload.policy, requireOperator(principal));
  }
}
