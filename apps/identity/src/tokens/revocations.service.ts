import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { BROADCAST, RevocationList, broadcastChannel } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import Redis from 'ioredis';
import { EntityManager, IsNull, MoreThan, Not, Repository } from 'typeorm';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { ProfileRevocationEntity } from '../profiles/entities/profile-revocation.entity';
import { ApiKeyRevocationEntity } from './entities/api-key-revocation.entity';

/** The longest a profile token lives (SPEC §4.1: 30 days); older revocations can no longer matter. */
const MAX_TOKEN_LIFETIME_MS = 2_592_000 * 1000;

/**
 * Revocations of tokens the gateways verify on their own: kept in the database (they survive every restart) and
 * broadcast so every gateway applies them within a second.
 */
@Injectable()
export class RevocationsService {
  constructor(
    @InjectRepository(ProfileRevocationEntity) private readonly profiles: Repository<ProfileRevocationEntity>,
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
    @InjectRepository(ApiKeyRevocationEntity) private readonly apiKeys: Repository<ApiKeyRevocationEntity>,
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /** Every token of the profile issued before now is refused from now on. */
  async revokeProfile(profileId: string, applicationId: string): Promise<number> {
    const revokedBefore = new Date();
    await this.profiles.upsert({ profileId, applicationId, revokedBefore }, ['profileId']);
    await this.broadcast({ profiles: [{ profileId, revokedBefore: revokedBefore.getTime() }], sessions: [], apiKeys: [] });
    return revokedBefore.getTime();
  }

  async sessionRevoked(sessionId: string, expiresAt: Date): Promise<void> {
    await this.broadcast({ profiles: [], sessions: [{ sessionId, expiresAt: expiresAt.getTime() }], apiKeys: [] });
  }

  /**
   * Every profile token the API key issued before `revokedBefore` (its own, and those refreshed from them) is refused
   * from now on. Saved with `manager`, in the transaction that deletes the key; {@link apiKeyTokensRevoked} tells the
   * gateways once it has committed.
   */
  async revokeApiKeyTokens(apiKeyId: string, applicationId: string, revokedBefore: Date, manager: EntityManager): Promise<void> {
    await manager.upsert(ApiKeyRevocationEntity, { apiKeyId, applicationId, revokedBefore }, ['apiKeyId']);
  }

  async apiKeyTokensRevoked(apiKeyId: string, revokedBefore: Date): Promise<void> {
    await this.broadcast({ profiles: [], sessions: [], apiKeys: [{ apiKeyId, revokedBefore: revokedBefore.getTime() }] });
  }

  /** What a gateway loads at start: revocations that can still refuse an unexpired token. */
  async list(): Promise<RevocationList> {
    const now = Date.now();
    const stillMatters = MoreThan(new Date(now - MAX_TOKEN_LIFETIME_MS));
    const [profiles, sessions, apiKeys] = await Promise.all([
      this.profiles.find({ where: { revokedBefore: stillMatters } }),
      this.sessions.find({ where: { revokedAt: Not(IsNull()), expiresAt: MoreThan(new Date(now)) } }),
      this.apiKeys.find({ where: { revokedBefore: stillMatters } }),
    ]);
    return {
      profiles: profiles.map((row) => ({ profileId: row.profileId, revokedBefore: row.revokedBefore.getTime() })),
      sessions: sessions.map((row) => ({ sessionId: row.id, expiresAt: row.expiresAt.getTime() })),
      apiKeys: apiKeys.map((row) => ({ apiKeyId: row.apiKeyId, revokedBefore: row.revokedBefore.getTime() })),
    };
  }

  private async broadcast(list: RevocationList): Promise<void> {
    // Saved already; if Redis is down the gateways reload the list when their subscription comes back.
    await this.redis.publish(broadcastChannel(this.config.keyPrefix, BROADCAST.revocations), JSON.stringify(list)).catch(() => 0);
  }
}
