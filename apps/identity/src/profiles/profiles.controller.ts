import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { IssuedToken, PATTERNS, ProfileView, requireApiKey, requireGameCredential } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ProfilesService, toProfileView } from './profiles.service';

@Controller()
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** For player creation: the profile of a game's player, made on first call, the same one after. */
  @Handles(PATTERNS.identity.createOrGetProfile)
  createOrGet(@Payload() { payload, principal }: EnvelopeOf<'identity.profiles.createOrGet'>): Promise<ProfileView & { created: boolean }> {
    return this.profiles.createOrGet(requireApiKey(principal).applicationId, payload.externalKey);
  }

  @Handles(PATTERNS.identity.getProfile)
  async get(@Payload() { payload, principal }: EnvelopeOf<'identity.profiles.get'>): Promise<ProfileView> {
    return toProfileView(await this.profiles.getFor(payload.profileId, requireGameCredential(principal)));
  }

  @Handles(PATTERNS.identity.authenticateProfile)
  authenticate(@Payload() { payload, principal }: EnvelopeOf<'identity.profiles.authenticate'>): Promise<IssuedToken> {
    return this.profiles.authenticate(payload.profileId, payload.duration, requireGameCredential(principal));
  }

  @Handles(PATTERNS.identity.revokeProfile)
  async revoke(@Payload() { payload, principal }: EnvelopeOf<'identity.profiles.revoke'>): Promise<{ revokedBefore: number }> {
    return { revokedBefore: await this.profiles.revoke(payload.profileId, requireApiKey(principal)) };
  }
}
