import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApiKeyView, CreatedApiKeyView, PATTERNS, ResolvedApiKey, requireSystem } from '@game-wallet/contracts';
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

  @Handles(PATTERNS.identity.updateApiKey)
  async update(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.update'>): Promise<ApiKeyView> {
    const caller = await this.access.require(principal, 'apiKeys.update', payload.gameId);
    return this.keys.setActive(payload.gameId, payload.keyId, payload.active, this.access.acting(caller, payload.gameId));
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
