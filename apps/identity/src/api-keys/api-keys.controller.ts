import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApiKeyView, AppError, CreatedApiKeyView, PATTERNS, ResolvedApiKey, SigningKeyView, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ConsoleAccessService } from '../access/console-access.service';
import { ApiKeysService } from './api-keys.service';

@Controller()
export class ApiKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly access: ConsoleAccessService,
  ) {}

  @Handles(PATTERNS.identity.listApiKeys)
  async list(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.list'>): Promise<{ items: ApiKeyView[] }> {
    await this.access.require(principal, 'apiKeys.read', payload.gameId);
    return this.keys.list(payload.gameId);
  }

  @Handles(PATTERNS.identity.createApiKey)
  async create(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.create'>): Promise<CreatedApiKeyView> {
    const caller = await this.access.require(principal, 'apiKeys.create', payload.gameId);
    return this.keys.create(payload.gameId, payload.name, this.access.acting(caller, payload.gameId));
  }

  /** `active` needs `apiKeys.update`; `signedRequests` needs `apiKeys.signing` (with step-up); both, both. */
  @Handles(PATTERNS.identity.updateApiKey)
  async update(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.update'>): Promise<ApiKeyView> {
    const { gameId, keyId, active, signedRequests } = payload;
    if (active === undefined && signedRequests === undefined) {
      throw new AppError('VALIDATION_FAILED', 'body: give active, signedRequests or both');
    }
    const caller = await this.access.require(principal, signedRequests === undefined ? 'apiKeys.update' : 'apiKeys.signing', gameId);
    if (active !== undefined && signedRequests !== undefined) {
      await this.access.require(principal, 'apiKeys.update', gameId);
    }
    const acting = this.access.acting(caller, gameId);
    let view = signedRequests === undefined ? undefined : await this.keys.setSignedRequests(gameId, keyId, signedRequests, acting);
    if (active !== undefined) {
      view = await this.keys.setActive(gameId, keyId, active, acting);
    }
    return view as ApiKeyView;
  }

  @Handles(PATTERNS.identity.addSigningKey)
  async addSigningKey(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.signingKeys.add'>): Promise<SigningKeyView> {
    const caller = await this.access.require(principal, 'apiKeys.signing', payload.gameId);
    return this.keys.addSigningKey(payload.gameId, payload.keyId, payload, this.access.acting(caller, payload.gameId));
  }

  @Handles(PATTERNS.identity.removeSigningKey)
  async removeSigningKey(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.signingKeys.remove'>): Promise<{ deleted: true }> {
    const caller = await this.access.require(principal, 'apiKeys.signing', payload.gameId);
    await this.keys.removeSigningKey(payload.gameId, payload.keyId, payload.signingKeyId, this.access.acting(caller, payload.gameId));
    return { deleted: true };
  }

  @Handles(PATTERNS.identity.deleteApiKey)
  async delete(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.delete'>): Promise<{ deleted: true }> {
    const caller = await this.access.require(principal, 'apiKeys.delete', payload.gameId);
    await this.keys.delete(payload.gameId, payload.keyId, payload.revokeTokens === true, this.access.acting(caller, payload.gameId));
    return { deleted: true };
  }

  /** Gateways only (system principal): the state of a presented key. */
  @Handles(PATTERNS.identity.resolveApiKey)
  resolve(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.resolve'>): Promise<ResolvedApiKey | null> {
    requireSystem(principal);
    return this.keys.resolve(payload.hash);
  }

  @Handles(PATTERNS.identity.touchApiKeys)
  async touch(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.touch'>): Promise<{ updated: number }> {
    requireSystem(principal);
    return { updated: await this.keys.touch(payload.uses) };
  }
}
