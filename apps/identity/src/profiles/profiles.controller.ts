import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, IssuedToken, MessageEnvelope, PATTERNS, ProfileView, RequestOf } from '@game-wallet/contracts';
import { requireGameCredential } from '../principals';
import { ProfilesService, toProfileView } from './profiles.service';

@Controller()
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** For player creation: the profile of a game's player, made on first call, the same one after. */
  @MessagePattern(PATTERNS.identity.createOrGetProfile)
  createOrGet(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.profiles.createOrGet'>>): Promise<ProfileView & { created: boolean }> {
    const caller = requireGameCredential(principal);
    if (caller.kind !== 'apiKey') {
      throw new AppError('API_KEY_REQUIRED', 'Profiles are created with an API key');
    }
    return this.profiles.createOrGet(caller.applicationId, payload.externalKey);
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
    const caller = requireGameCredential(principal);
    if (caller.kind !== 'apiKey') {
      throw new AppError('API_KEY_REQUIRED', 'Revoking needs an API key of the game');
    }
    return { revokedBefore: await this.profiles.revoke(payload.profileId, caller) };
  }
}
