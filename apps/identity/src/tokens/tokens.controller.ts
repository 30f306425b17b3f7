import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Jwks, MessageEnvelope, PATTERNS, RequestOf, RevocationPage, requireSystem } from '@game-wallet/contracts';
import { RevocationsService } from './revocations.service';
import { SigningKeysService } from './signing-keys.service';

/** What gateways need to verify tokens locally: the public keys and the revocations. */
@Controller()
export class TokensController {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly revocations: RevocationsService,
  ) {}

  /** Read from the database each time: asked right after a rotation, this replica may not have reloaded yet. */
  @MessagePattern(PATTERNS.identity.getJwks)
  async jwks(): Promise<Jwks> {
    await this.keys.reload();
    return this.keys.publicJwks();
  }

  @MessagePattern(PATTERNS.identity.listRevocations)
  list(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.tokens.revocations'>>): Promise<RevocationPage> {
    requireSystem(principal);
    return this.revocations.list(payload.after, payload.limit);
  }
}
