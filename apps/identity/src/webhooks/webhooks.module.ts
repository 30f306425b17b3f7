import { Module } from '@nestjs/common';
import { ConsoleAccessModule } from '../access/console-access.module';
import { AuditModule } from '../audit/audit.module';
import { GamesModule } from '../games/games.module';
import { TokensModule } from '../tokens/tokens.module';
import { IdentityOutboxRelay } from './identity-outbox-relay';
import { systemResolver } from './webhook-address-guard';
import { WEBHOOK_RESOLVER, WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookQueue } from './webhook-queue';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';

/** Events and webhooks: identity's outbox relay, the dispatcher and its queue, and the endpoints operators manage. */
@Module({
  imports: [ConsoleAccessModule, AuditModule, GamesModule, TokensModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhookQueue,
    WebhookDispatcher,
    WebhookEndpointsService,
    IdentityOutboxRelay,
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
  ],
})
export class WebhooksModule {}
