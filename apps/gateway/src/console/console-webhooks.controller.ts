import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { CreatedWebhookEndpointView, PAGE_LIMIT, PATTERNS, Page, WebhookDeliveryView, WebhookEndpointView, decodeCursor } from '@game-wallet/contracts';
import { ServiceCalls } from '../services/service-calls';
import { parseBody, parseQuery } from '../validation';
import { createWebhookBody, deliveriesQuery, redeliverFailedBody, rotateSecretBody, updateWebhookBody } from './webhook-input';

/** A game's webhook endpoints, their secrets and delivery log (SPEC §11; README "Webhooks"). */
@Controller('v1/console/games/:gameId/webhooks')
@Authenticated({ console: true })
export class ConsoleWebhooksController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  list(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller): Promise<{ items: WebhookEndpointView[] }> {
    return this.services.call(PATTERNS.identity.listWebhooks, { gameId }, caller);
  }

  /** The answer holds the endpoint's secret (`whsec_…`), shown this once. */
  @Post()
  create(@Param('gameId') gameId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<CreatedWebhookEndpointView> {
    return this.services.call(PATTERNS.identity.createWebhook, { gameId, ...parseBody(createWebhookBody, body) }, caller);
  }

  @Patch(':endpointId')
  update(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<WebhookEndpointView> {
    return this.services.call(PATTERNS.identity.updateWebhook, { gameId, endpointId, ...parseBody(updateWebhookBody, body) }, caller);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  async delete(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.deleteWebhook, { gameId, endpointId }, caller);
  }

  /** A new secret (shown this once); the old one keeps signing beside it for `overlapSeconds` (default a day). */
  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<CreatedWebhookEndpointView> {
    return this.services.call(PATTERNS.identity.rotateWebhookSecret, { gameId, endpointId, ...parseBody(rotateSecretBody, body ?? {}) }, caller);
  }

  @Post(':endpointId/test')
  @HttpCode(202)
  test(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Caller() caller: ServiceCaller): Promise<WebhookDeliveryView> {
    return this.services.call(PATTERNS.identity.testWebhook, { gameId, endpointId }, caller);
  }

  @Get(':endpointId/deliveries')
  deliveries(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Query() query: unknown, @Caller() caller: ServiceCaller): Promise<Page<WebhookDeliveryView>> {
    const { cursor, limit, status } = parseQuery(deliveriesQuery, query);
    decodeCursor(cursor);
    const page = { cursor: cursor || undefined, limit: limit ?? PAGE_LIMIT.default, ...(status === undefined ? {} : { status }) };
    return this.services.call(PATTERNS.identity.listWebhookDeliveries, { gameId, endpointId, ...page }, caller);
  }

  @Post(':endpointId/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  redeliver(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Param('deliveryId') deliveryId: string, @Caller() caller: ServiceCaller): Promise<WebhookDeliveryView> {
    return this.services.call(PATTERNS.identity.redeliverWebhook, { gameId, endpointId, deliveryId }, caller);
  }

  /** Every failed delivery of events received since `since`, again (at most 10,000). */
  @Post(':endpointId/redeliver')
  @HttpCode(202)
  redeliverFailed(@Param('gameId') gameId: string, @Param('endpointId') endpointId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<{ scheduled: number }> {
    return this.services.call(PATTERNS.identity.redeliverFailedWebhooks, { gameId, endpointId, ...parseBody(redeliverFailedBody, body) }, caller);
  }
}
