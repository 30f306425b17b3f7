import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreatedWebhookEndpointView, PATTERNS, Page, WEBHOOK_LIMITS, WebhookDeliveryView, WebhookEndpointView, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ConsoleAccessService } from '../access/console-access.service';
import { IdentityOutboxRelay } from './identity-outbox-relay';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Controller()
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly relay: IdentityOutboxRelay,
    private readonly access: ConsoleAccessService,
  ) {}

  /** The wallet and core services' outbox relays (system principal). */
  @Handles(PATTERNS.identity.ingestEvents)
  ingest(@Payload() { payload, principal }: EnvelopeOf<'identity.events.ingest'>): Promise<{ accepted: number }> {
    requireSystem(principal);
    return this.relay.ingest(payload.events);
  }

  @Handles(PATTERNS.identity.listWebhooks)
  async list(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.list'>): Promise<{ items: WebhookEndpointView[] }> {
    await this.access.require(principal, 'webhooks.read', payload.gameId);
    return this.endpoints.list(payload.gameId);
  }

  @Handles(PATTERNS.identity.createWebhook)
  async create(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.create'>): Promise<CreatedWebhookEndpointView> {
    const caller = await this.access.require(principal, 'webhooks.manage', payload.gameId);
    const { gameId, ...input } = payload;
    return this.endpoints.create(gameId, input, this.access.acting(caller, gameId));
  }

  @Handles(PATTERNS.identity.updateWebhook)
  async update(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.update'>): Promise<WebhookEndpointView> {
    const caller = await this.access.require(principal, 'webhooks.manage', payload.gameId);
    const { gameId, endpointId, ...input } = payload;
    return this.endpoints.update(gameId, endpointId, input, this.access.acting(caller, gameId));
  }

  @Handles(PATTERNS.identity.deleteWebhook)
  async delete(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.delete'>): Promise<{ deleted: true }> {
    const caller = await this.access.require(principal, 'webhooks.manage', payload.gameId);
    await this.endpoints.delete(payload.gameId, payload.endpointId, this.access.acting(caller, payload.gameId));
    return { deleted: true };
  }

  @Handles(PATTERNS.identity.rotateWebhookSecret)
  async rotateSecret(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.rotateSecret'>): Promise<CreatedWebhookEndpointView> {
    const caller = await this.access.require(principal, 'webhooks.manage', payload.gameId);
    const overlap = payload.overlapSeconds ?? WEBHOOK_LIMITS.rotationOverlapSeconds.default;
    return this.endpoints.rotateSecret(payload.gameId, payload.endpointId, overlap, this.access.acting(caller, payload.gameId));
  }

  @Handles(PATTERNS.identity.testWebhook)
  async test(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.test'>): Promise<WebhookDeliveryView> {
    const caller = await this.access.require(principal, 'webhooks.deliver', payload.gameId);
    return this.endpoints.sendTest(payload.gameId, payload.endpointId, this.access.acting(caller, payload.gameId));
  }

  @Handles(PATTERNS.identity.listWebhookDeliveries)
  async deliveries(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.deliveries'>): Promise<Page<WebhookDeliveryView>> {
    await this.access.require(principal, 'webhooks.read', payload.gameId);
    const { gameId, endpointId, ...page } = payload;
    return this.endpoints.deliveries(gameId, endpointId, page);
  }

  @Handles(PATTERNS.identity.redeliverWebhook)
  async redeliver(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.redeliver'>): Promise<WebhookDeliveryView> {
    const caller = await this.access.require(principal, 'webhooks.deliver', payload.gameId);
    return this.endpoints.redeliver(payload.gameId, payload.endpointId, payload.deliveryId, this.access.acting(caller, payload.gameId));
  }

  @Handles(PATTERNS.identity.redeliverFailedWebhooks)
  async redeliverFailed(@Payload() { payload, principal }: EnvelopeOf<'identity.webhooks.redeliverFailed'>): Promise<{ scheduled: number }> {
    const caller = await this.access.require(principal, 'webhooks.deliver', payload.gameId);
    return this.endpoints.redeliverFailed(payload.gameId, payload.endpointId, new Date(payload.since), this.access.acting(caller, payload.gameId));
  }
}
