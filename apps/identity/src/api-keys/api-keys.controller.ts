import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApiKeyView, CreatedApiKeyView, PATTERNS, ResolvedApiKey, requireOperator, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ApiKeysService } from './api-keys.service';

@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Handles(PATTERNS.identity.listApiKeys)
  list(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.list'>): Promise<{ items: ApiKeyView[] }> {
    requireOperator(principal);
    return this.keys.list(payload.gameId);
  }

  @Handles(PATTERNS.identity.createApiKey)
  create(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.create'>): Promise<CreatedApiKeyView> {
    return this.keys.create(payload.gameId, payload.name, requireOperator(principal));
  }

  @Handles(PATTERNS.identity.updateApiKey)
  update(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.update'>): Promise<ApiKeyView> {
    return this.keys.setActive(payload.gameId, payload.keyId, payload.active, requireOperator(principal));
  }

  @Handles(PATTERNS.identity.deleteApiKey)
  async delete(@Payload() { payload, principal }: EnvelopeOf<'identity.apiKeys.delete'>): Promise<{ deleted: true }> {
    await this.keys.delete(payload.gameId, payload.keyId, payload.revokeTokens === true, requireOperator(principal));
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
