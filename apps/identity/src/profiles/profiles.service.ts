import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, GamePrincipal, IssuedToken, Ownership, ProfileView, requireOwned } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { RevocationsService } from '../tokens/revocations.service';
import { TokenIssuer } from '../tokens/token-issuer';
import { ProfileEntity } from './entities/profile.entity';
import { LRUCache } from 'lru-cache';
import { ProfilesRepository } from './profiles.repository';

/** A profile token reaches its own profile only. */
const PROFILE_OWNERSHIP: Ownership<ProfileEntity> = {
  notFound: ['PROFILE_NOT_FOUND', 'No profile with this id'],
  forbidden: 'This profile belongs to another game or profile',
  profileOf: (profile) => profile.id,
};

export function toProfileView(profile: ProfileEntity): ProfileView {
  return { id: profile.id, applicationId: profile.applicationId, createdAt: new Date(profile.createdAt).toISOString() };
}

/** Profiles and their tokens. Every read is scoped by the caller: its game, and for a profile token, itself. */
@Injectable()
export class ProfilesService {
  /** Profiles never change once made (nor move game), so a read can be served from memory: token issuing needs no query. */
  private readonly known = new LRUCache<string, ProfileEntity>({ max: 50_000 });

  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly issuer: TokenIssuer,
    private readonly revocations: RevocationsService,
  ) {}

  async createOrGet(applicationId: string, externalKey: string): Promise<ProfileView & { created: boolean }> {
    const { profile, created } = await this.profiles.createOrGet({ id: newId(), applicationId, externalKey, createdAt: new Date() });
    return { ...toProfileView(profile), created };
  }

  /** 404 when no such profile, then 403 when it is another game's, or (for a profile token) another profile. */
  async getFor(profileId: string, principal: GamePrincipal): Promise<ProfileEntity> {
    const profile = this.known.get(profileId) ?? (isUuid(profileId) ? await this.profiles.findById(profileId) : null);
    if (profile) {
      this.known.set(profile.id, profile);
    }
    return requireOwned(profile, principal, PROFILE_OWNERSHIP);
  }

  /**
   * A token for the profile. Issued by an API key: up to the full duration, tied to that key. Refreshed by a profile
   * token: tied to the same key, and never outliving the token presented (a stolen token cannot renew itself forever).
   */
  async authenticate(profileId: string, durationSeconds: number, principal: GamePrincipal): Promise<IssuedToken> {
    const profile = await this.getFor(profileId, principal);
    const chain = principal.kind === 'apiKey' ? { apiKeyId: principal.keyId } : { apiKeyId: principal.apiKeyId, notAfter: principal.tokenExpiresAt };
    return this.issuer.profileToken(profile.id, profile.applicationId, durationSeconds, chain);
  }

  async revoke(profileId: string, principal: ApiKeyPrincipal): Promise<number> {
    const profile = await this.getFor(profileId, principal);
    return this.revocations.revokeProfile(profile.id, profile.applicationId, principal);
  }
}
