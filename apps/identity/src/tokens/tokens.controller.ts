import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Jwks, PATTERNS, RevocationPage, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
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
  @Handles(PATTERNS.identity.getJwks)
  async jwks(): Promise<Jwks> {
    await this.keys.reload();
    return this.keys.publicJwks();
  }

  @Handles(PATTERNS.identity.listRevocations)
  list(@Payload() { payload, principal }: EnvelopeOf<'identity.tokens.revocations'>): Promise<RevocationPage> {
    requireSystem(principal);
    return this.revocations.list(payload.after, payload.limit);
  }
}
