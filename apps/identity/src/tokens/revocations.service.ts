import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AppError, BROADCAST, Principal, PROFILE_TOKEN_MAX_SECONDS, RevocationCursors, RevocationList, RevocationPage, broadcastChannel } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import { TransportKeys, broadcastContext, signValue } from '@game-wallet/transport';
import Redis from 'ioredis';
import { EntityManager, FindOptionsWhere, IsNull, MoreThan, Not, ObjectLiteral, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { ProfileRevocationEntity } from '../profiles/entities/profile-revocation.entity';
import { ApiKeyRevocationEntity } from './entities/api-key-revocation.entity';

/** Revocations older than the longest a profile token lives can no longer matter. */
const MAX_TOKEN_LIFETIME_MS = PROFILE_TOKEN_MAX_SECONDS * 1000;

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
    private readonly keys: TransportKeys,
    private readonly audit: AuditService,
  ) {}

  /** Every token of the profile issued before now is refused from now on (audited, with its event, as `profile.tokens_revoked`). */
  async revokeProfile(profileId: string, applicationId: string, principal: Principal): Promise<number> {
    const revokedBefore = new Date();
    await this.profiles.manager.transaction(async (manager) => {
      await manager.upsert(ProfileRevocationEntity, { profileId, applicationId, revokedBefore }, ['profileId']);
      await this.audit.record(
        { applicationId, principal, action: 'profile.tokens_revoked', target: `profile:${profileId}`, details: { revokedBefore: revokedBefore.toISOString() } },
        manager,
      );
    });
    await this.broadcast({ profiles: [{ profileId, revokedBefore: revokedBefore.getTime() }], sessions: [], apiKeys: [] });
    return revokedBefore.getTime();
  }

  async sessionRevoked(sessionId: string, expiresAt: Date): Promise<void> {
    await this.broadcast({ profiles: [], sessions: [{ sessionId, expiresAt: expiresAt.getTime() }], apiKeys: [] });
  }

  /** Console sessions ended together (an operator suspended or removed), told to the gateways in one broadcast. */
  async sessionsRevoked(sessions: readonly { id: string; expiresAt: Date }[]): Promise<void> {
    if (sessions.length > 0) {
      await this.broadcast({ profiles: [], sessions: sessions.map(({ id, expiresAt }) => ({ sessionId: id, expiresAt: expiresAt.getTime() })), apiKeys: [] });
    }
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

  /**
   * What a gateway loads at start and every 30 s: revocations that can still refuse an unexpired token, a page at a
   * time (each list in id order, `limit` rows of each per page). Without `after`, every list from its start; then
   * only the lists named in `after`, from there.
   */
  async list(after?: RevocationCursors, limit = 1000): Promise<RevocationPage> {
    const now = Date.now();
    const size = Math.min(Math.max(Math.floor(limit), 1), 5000);
    const stillMatters = MoreThan(new Date(now - MAX_TOKEN_LIFETIME_MS));
    const wanted = (list: keyof RevocationCursors) => after === undefined || after[list] !== undefined;
    const [profiles, sessions, apiKeys] = await Promise.all([
      wanted('profiles') ? pageAfter(this.profiles, 'profileId', { revokedBefore: stillMatters }, after?.profiles, size) : [],
      wanted('sessions') ? pageAfter(this.sessions, 'id', { revokedAt: Not(IsNull()), expiresAt: MoreThan(new Date(now)) }, after?.sessions, size) : [],
      wanted('apiKeys') ? pageAfter(this.apiKeys, 'apiKeyId', { revokedBefore: stillMatters }, after?.apiKeys, size) : [],
    ]);
    const next: RevocationCursors = {};
    if (profiles.length > size) {
      next.profiles = profiles[size - 1].profileId;
    }
    if (sessions.length > size) {
      next.sessions = sessions[size - 1].id;
    }
    if (apiKeys.length > size) {
      next.apiKeys = apiKeys[size - 1].apiKeyId;
    }
    return {
      profiles: profiles.slice(0, size).map((row) => ({ profileId: row.profileId, revokedBefore: row.revokedBefore.getTime() })),
      sessions: sessions.slice(0, size).map((row) => ({ sessionId: row.id, expiresAt: row.expiresAt.getTime() })),
      apiKeys: apiKeys.slice(0, size).map((row) => ({ apiKeyId: row.apiKeyId, revokedBefore: row.revokedBefore.getTime() })),
      next: Object.keys(next).length > 0 ? next : null,
    };
  }

  /**
   * Tells every gateway, signed for the channel (gateways drop a revocation they cannot check). The revocation is saved
   * already, so a failure is a 503, never silence: asking again publishes again, and gateways reload the whole list
   * every 30 s in any case.
   */
  private async broadcast(list: RevocationList): Promise<void> {
    const channel = broadcastChannel(this.config.keyPrefix, BROADCAST.revocations);
    try {
      await this.redis.publish(channel, signValue(this.keys, 'gateway', broadcastContext(channel), JSON.stringify(list)));
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The revocation is saved but could not be sent to the gateways yet; it takes effect within 30 s, or ask again');
    }
  }
}

/** Up to `size + 1` rows after `cursor` in `column` order (the extra row tells that there is more). */
function pageAfter<T extends ObjectLiteral>(
  repository: Repository<T>,
  column: keyof T & string,
  where: FindOptionsWhere<T>,
  cursor: string | undefined,
  size: number,
): Promise<T[]> {
  const after = cursor === undefined ? {} : ({ [column]: MoreThan(cursor) } as FindOptionsWhere<T>);
  return repository.find({ where: { ...where, ...after }, order: { [column]: 'ASC' } as never, take: size + 1 });
}
