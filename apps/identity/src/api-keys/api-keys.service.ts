import { Injectable, Logger } from '@nestjs/common';
import { AppError, ApiKeyView, CreatedApiKeyView, Principal, ResolvedApiKey, SIGNING_KEYS_PER_API_KEY, SignedRequests, SigningKeyView } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { GamesService } from '../games/games.service';
import { ApiKeyCache } from './api-key-cache';
import { generateApiKeySecret, hashApiKey, previewApiKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyEntity } from './entities/api-key.entity';
import { RequestSigningKeyEntity } from './entities/request-signing-key.entity';
import { parseSigningPublicKey } from './request-signing-key';

export function toApiKeyView(key: ApiKeyEntity, signingKeys: RequestSigningKeyEntity[]): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    preview: key.preview,
    active: key.active,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    signedRequests: key.signedRequests,
    signingKeys: signingKeys.map(toSigningKeyView),
  };
}

function toSigningKeyView(key: RequestSigningKeyEntity): SigningKeyView {
  return {
    id: key.id,
    name: key.name,
    algorithm: key.algorithm,
    publicKey: key.publicKey,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

/** What gateways are told of a key: its state, and what its requests must be signed with. */
function resolvedOf(key: ApiKeyEntity, signingKeys: RequestSigningKeyEntity[]): ResolvedApiKey {
  return {
    keyId: key.id,
    applicationId: key.applicationId,
    active: key.active,
    signedRequests: key.signedRequests,
    signingKeys: signingKeys.map(({ id, algorithm, publicKey }) => ({ id, algorithm, publicKey })),
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
    const keys = await this.keys.listForGame(game.id);
    const signingKeys = await this.keys.signingKeysOf(keys.map((key) => key.id));
    return { items: keys.map((key) => toApiKeyView(key, signingKeys.filter((signing) => signing.apiKeyId === key.id))) };
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
      signedRequests: 'off',
    };
    await this.keys.transaction(async (manager) => {
      await this.keys.insert(key, manager);
      await this.audit.record(
        { applicationId: game.id, principal, action: 'api_key.created', target: `api-key:${key.id}`, details: { name: key.name } },
        manager,
      );
    });
    // A cached "no such key" for this hash (only possible if it was guessed) must not outlive the creation. The key
    // exists once committed: a failed announcement is logged, not answered 503, which would lose the secret shown only
    // here (and a retry with the same Idempotency-Key would create a second key).
    await this.cache.changed(key.keyHash, resolvedOf(key, [])).catch(() => this.logger.warn(`API key ${key.id} created; gateways learn of it within 30 s`));
    return { ...toApiKeyView(key, []), key: secret };
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
    return this.announce(key);
  }

  /**
   * Which of the key's requests must be signed. Requiring any needs a registered signing key (else every such request
   * would be refused, and the key could not be used to fix it).
   */
  async setSignedRequests(gameId: string, keyId: string, signedRequests: SignedRequests, principal: Principal): Promise<ApiKeyView> {
    const found = await this.find(gameId, keyId);
    const key = await this.keys.transaction(async (manager) => {
      const locked = await this.locked(found, manager);
      if (locked.signedRequests === signedRequests) {
        return locked;
      }
      if (signedRequests !== 'off' && (await this.keys.signingKeysOf([locked.id], manager)).length === 0) {
        throw new AppError('SIGNING_KEY_REQUIRED', 'Register a request-signing key before requiring signed requests');
      }
      await this.keys.setSignedRequests(locked.applicationId, locked.id, signedRequests, manager);
      await this.audit.record(
        { applicationId: locked.applicationId, principal, action: 'api_key.updated', target: `api-key:${locked.id}`, details: { name: locked.name, signedRequests } },
        manager,
      );
      return { ...locked, signedRequests };
    });
    return this.announce(key);
  }

  /** Registers a request-signing public key (PEM or JWK) for the API key: at most three, each once. */
  async addSigningKey(gameId: string, keyId: string, input: { name?: string; publicKey: string | Record<string, unknown> }, principal: Principal): Promise<SigningKeyView> {
    const parsed = parseSigningPublicKey(input.publicKey);
    const found = await this.find(gameId, keyId);
    const added = await this.keys.transaction(async (manager) => {
      const locked = await this.locked(found, manager);
      const existing = await this.keys.signingKeysOf([locked.id], manager);
      if (existing.some((signing) => signing.id === parsed.id)) {
        throw new AppError('SIGNING_KEY_EXISTS', `This public key is already registered (fingerprint ${parsed.id})`);
      }
      if (existing.length >= SIGNING_KEYS_PER_API_KEY) {
        throw new AppError('SIGNING_KEY_LIMIT', `An API key has at most ${SIGNING_KEYS_PER_API_KEY} request-signing keys; remove one first`);
      }
      const signing: RequestSigningKeyEntity = {
        apiKeyId: locked.id,
        id: parsed.id,
        applicationId: locked.applicationId,
        name: input.name ?? (parsed.algorithm === 'ed25519' ? 'Ed25519 key' : 'P-256 key'),
        algorithm: parsed.algorithm,
        publicKey: parsed.publicKey,
        createdAt: new Date(),
        lastUsedAt: null,
      };
      await this.keys.insertSigningKey(signing, manager);
      await this.audit.record(
        {
          applicationId: locked.applicationId,
          principal,
          action: 'api_key.updated',
          target: `api-key:${locked.id}`,
          details: { name: locked.name, signingKeyAdded: signing.id, algorithm: signing.algorithm },
        },
        manager,
      );
      return signing;
    });
    // An addition weakens nothing: if the gateways cannot be told now, they take it within 30 s (a 503 would have the
    // client retry a change that is made).
    await this.announce(found).catch(() => this.logger.warn(`Signing key ${added.id} added to API key ${found.id}; gateways learn of it within 30 s`));
    return toSigningKeyView(added);
  }

  /** Removes a request-signing key; the last one cannot go while signed requests are required. */
  async removeSigningKey(gameId: string, keyId: string, signingKeyId: string, principal: Principal): Promise<void> {
    const found = await this.find(gameId, keyId);
    await this.keys.transaction(async (manager) => {
      const locked = await this.locked(found, manager);
      const existing = await this.keys.signingKeysOf([locked.id], manager);
      if (!existing.some((signing) => signing.id === signingKeyId)) {
        throw new AppError('SIGNING_KEY_NOT_FOUND', 'No request-signing key with this fingerprint on this API key');
      }
      if (existing.length === 1 && locked.signedRequests !== 'off') {
        throw new AppError('SIGNING_KEY_REQUIRED', 'This is the last signing key of an API key that requires signed requests: stop requiring them first, or add another key');
      }
      await this.keys.deleteSigningKey(locked.id, signingKeyId, manager);
      await this.audit.record(
        { applicationId: locked.applicationId, principal, action: 'api_key.updated', target: `api-key:${locked.id}`, details: { name: locked.name, signingKeyRemoved: signingKeyId } },
        manager,
      );
    });
    await this.announce(found);
  }

  /**
   * Tells the gateways the key's current state (signing keys included) and answers its view. Read and sent under the
   * key's row lock, so two changes that overlap are announced in the order they were made (the last state wins).
   */
  private async announce(key: ApiKeyEntity): Promise<ApiKeyView> {
    return this.keys.transaction(async (manager) => {
      const current = (await this.keys.lockForUpdate(key.applicationId, key.id, manager)) ?? key;
      const signingKeys = await this.keys.signingKeysOf([current.id], manager);
      await this.cache.changed(current.keyHash, resolvedOf(current, signingKeys));
      return toApiKeyView(current, signingKeys);
    });
  }

  private async locked(key: ApiKeyEntity, manager: EntityManager): Promise<ApiKeyEntity> {
    const locked = await this.keys.lockForUpdate(key.applicationId, key.id, manager);
    if (!locked) {
      throw new AppError('API_KEY_NOT_FOUND', 'No API key with this id in this game');
    }
    return locked;
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
    const readAt = Date.now();
    const key = /^[0-9a-f]{64}$/.test(hash) ? await this.keys.findByHash(hash) : null;
    const state = key ? resolvedOf(key, await this.keys.signingKeysOf([key.id])) : null;
    await this.cache.fill(hash, state, readAt);
    return state;
  }

  async touch(uses: { keyId: string; at: number; signingKeyId?: string }[]): Promise<number> {
    const valid = uses.filter((use) => isUuid(use.keyId) && Number.isFinite(use.at) && use.at <= Date.now() + 60_000);
    const updated = await this.keys.touch(valid.map((use) => ({ keyId: use.keyId, at: new Date(use.at) })));
    const signed = valid.filter((use): use is typeof use & { signingKeyId: string } => typeof use.signingKeyId === 'string' && /^[A-Za-z0-9_-]{43}$/.test(use.signingKeyId));
    await this.keys.touchSigningKeys(signed.map((use) => ({ keyId: use.keyId, signingKeyId: use.signingKeyId, at: new Date(use.at) })));
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
