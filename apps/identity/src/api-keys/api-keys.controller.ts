import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiKeyView, CreatedApiKeyView, MessageEnvelope, PATTERNS, RequestOf, ResolvedApiKey, requireOperator, requireSystem } from '@game-wallet/contracts';
import { ApiKeysService } from './api-keys.service';

@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @MessagePattern(PATTERNS.identity.listApiKeys)
  list(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.list'>>): Promise<{ items: ApiKeyView[] }> {
    requireOperator(principal);
    return this.keys.list(payload.gameId);
  }

  @MessagePattern(PATTERNS.identity.createApiKey)
  create(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.create'>>): Promise<CreatedApiKeyView> {
    return this.keys.create(payload.gameId, payload.name, requireOperator(principal));
  }

  @MessagePattern(PATTERNS.identity.updateApiKey)
  update(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.update'>>): Promise<ApiKeyView> {
    return this.keys.setActive(payload.gameId, payload.keyId, payload.active, requireOperator(principal));
  }

  @MessagePattern(PATTERNS.identity.deleteApiKey)
  async delete(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.delete'>>): Promise<{ deleted: true }> {
    await this.keys.delete(payload.gameId, payload.keyId, payload.revokeTokens === true, requireOperator(principal));
    return { deleted: true };
  }

  /** Gateways only (system principal): the state of a presented key. */
  @MessagePattern(PATTERNS.identity.resolveApiKey)
  resolve(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.resolve'>>): Promise<ResolvedApiKey | null> {
    requireSystem(principal);
    return this.keys.resolve(payload.hash);
  }

  @MessagePattern(PATTERNS.identity.touchApiKeys)
  async touch(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.apiKeys.touch'>>): Promise<{ updated: number }> {
    requireSystem(principal);
    return { updated: await this.keys.touch(payload.uses) };
  }
}
