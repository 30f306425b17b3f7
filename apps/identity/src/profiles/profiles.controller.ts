import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IssuedToken, MessageEnvelope, PATTERNS, ProfileView, RequestOf, requireApiKey, requireGameCredential } from '@game-wallet/contracts';
import { ProfilesService, toProfileView } from './profiles.service';

@Controller()
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** For player creation: the profile of a game's player, made on first call, the same one after. */
  @MessagePattern(PATTERNS.identity.createOrGetProfile)
  createOrGet(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.profiles.createOrGet'>>): Promise<ProfileView & { created: boolean }> {
    return this.profiles.createOrGet(requireApiKey(principal).applicationId, payload.externalKey);
  }

  @MessagePattern(PATTERNS.identity.getProfile)
  async get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.profiles.get'>>): Promise<ProfileView> {
    return toProfileView(await this.profiles.getFor(payload.profileId, requireGameCredential(principal)));
  }

  @MessagePattern(PATTERNS.identity.authenticateProfile)
  authenticate(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.profiles.authenticate'>>): Promise<IssuedToken> {
    return this.profiles.authenticate(payload.profileId, payload.duration, requireGameCredential(principal));
  }

  @MessagePattern(PATTERNS.identity.revokeProfile)
  async revoke(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.profiles.revoke'>>): Promise<{ revokedBefore: number }> {
    return { revokedBefore: await this.profiles.revoke(payload.profileId, requireApiKey(principal)) };
  }
}
