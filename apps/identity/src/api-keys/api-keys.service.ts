import { Injectable, Logger } from '@nestjs/common';
import { AppError, ApiKeyView, CreatedApiKeyView, Principal, ResolvedApiKey } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { GamesService } from '../games/games.service';
import { ApiKeyCache } from './api-key-cache';
import { generateApiKeySecret, hashApiKey, previewApiKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyEntity } from './entities/api-key.entity';

export function toApiKeyView(key: ApiKeyEntity): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    preview: key.preview,
    active: key.active,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

/** API keys: created active, active ⇄ inactive, deleted for good (SPEC §5). */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly games: GamesService,
    private readonly cache: ApiKeyCache,
    private readonly audit: AuditService,
    private readonly revocations: RevocationsService,
  ) {}

  async list(gameId: string): Promise<{ items: ApiKeyView[] }> {
    const game = await this.games.get(gameId);
    return { items: (await this.keys.listForGame(game.id)).map(toApiKeyView) };
  }

  async create(gameId: string, name: string | undefined, principal: Principal): Promise<CreatedApiKeyView> {
    const game = await this.games.get(gameId);
    const secret = generateApiKeySecret();
    const key: ApiKeyEntity = {
      id: newId(),
      applicationId: game.id,
      name: name ?? 'API key',
      keyHash: hashApiKey(secret),
      preview: previewApiKey(secret),
      active: true,
      createdAt: new Date(),
      lastUsedAt: null,
    };
    await this.keys.transaction(async (manager) => {
      await this.keys.insert(key, manager);
      await this.audit.record(
        { applicationId: game.id, principal, action: 'api_key.created', target: `api-key:${key.id}`, details: { name: key.name } },
        manager,
      );
    });
    // A cached "no such key" for this hash (only possible if it was guessed) must not outlive the creation.
    await this.cache.changed(key.keyHash, { keyId: key.id, applicationId: key.applicationId, active: true });
    return { ...toApiKeyView(key), key: secret };
  }

  async setActive(gameId: string, keyId: string, active: boolean, principal: Principal): Promise<ApiKeyView> {
    const key = await this.find(gameId, keyId);
    if (key.active !== active) {
      await this.keys.transaction(async (manager) => {
        await this.keys.setActive(key.applicationId, key.id, active, manager);
        await this.audit.record(
          { applicationId: key.applicationId, principal, action: 'api_key.updated', target: `api-key:${key.id}`, details: { name: key.name, active } },
          manager,
        );
      });
      key.active = active;
    }
    await this.cache.changed(key.keyHash, { keyId: key.id, applicationId: key.applicationId, active });
    return toApiKeyView(key);
  }

  /**
   * Deletes a key for good. With `revokeTokens`, every profile token it issued is revoked too; without, they live on
   * until they expire (rotating a key does not sign every player out).
   */
  async delete(gameId: string, keyId: string, revokeTokens: boolean, principal: Principal): Promise<void> {
    const key = await this.find(gameId, keyId);
    const revokedBefore = new Date();
    await this.keys.transaction(async (manager) => {
      await this.keys.delete(key.applicationId, key.id, manager);
      if (revokeTokens) {
        await this.revocations.revokeApiKeyTokens(key.id, key.applicationId, revokedBefore, manager);
      }
      await this.audit.record(
        { applicationId: key.applicationId, principal, action: 'api_key.deleted', target: `api-key:${key.id}`, details: { name: key.name, revokeTokens } },
        manager,
      );
    });
    // Both announcements are tried whatever becomes of the other: the key is gone, so asking again would find nothing
    // to announce (gateways reload both within 30 s in any case). Either failing answers 503.
    const announced = await Promise.allSettled([this.cache.changed(key.keyHash, null), revokeTokens ? this.revocations.apiKeyTokensRevoked(key.id, revokedBefore) : undefined]);
    const failed = announced.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
  }

  /** The gateway's lookup of a presented key by its hash; null when no such key exists. */
  async resolve(hash: string): Promise<ResolvedApiKey | null> {
    const key = /^[0-9a-f]{64}$/.test(hash) ? await this.keys.findByHash(hash) : null;
    const state = key ? { keyId: key.id, applicationId: key.applicationId, active: key.active } : null;
    await this.cache.fill(hash, state);
    return state;
  }

  async touch(uses: { keyId: string; at: number }[]): Promise<number> {
    const valid = uses.filter((use) => isUuid(use.keyId) && Number.isFinite(use.at) && use.at <= Date.now() + 60_000);
    const updated = await this.keys.touch(valid.map((use) => ({ keyId: use.keyId, at: new Date(use.at) })));
    this.logger.debug(`Recorded last use of ${updated} API key(s)`);
    return updated;
  }

  private async find(gameId: string, keyId: string): Promise<ApiKeyEntity> {
    const game = await this.games.get(gameId);
    const key = isUuid(keyId) ? await this.keys.findInGame(game.id, keyId) : null;
    if (!key) {
      throw new AppError('API_KEY_NOT_FOUND', 'No API key with this id in this game');
    }
    return key;
  }
}
