import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CreatedWebhookEndpointView,
  OperatorPrincipal,
  Page,
  PageRequest,
  currentEventType,
  WEBHOOK_LIMITS,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointInput,
  WebhookEndpointView,
  decodeCursor,
  isUuid,
  isWebhookEventType,
  pageOf,
} from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { isIP } from 'node:net';
import { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { GamesService } from '../games/games.service';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { KEY_ENCRYPTION_KEY } from '../tokens/key-encryption-key';
import { isPublicAddress } from './webhook-address-guard';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookQueue } from './webhook-queue';
import { newWebhookSecret, sealWebhookSecret } from './webhook-secrets';
import { recordedUrl } from './webhook-sender';
import { DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks.repository';

/** Most failed deliveries one "redeliver all failed since" schedules again. */
export const REDELIVER_FAILED_LIMIT = 10_000;

/** A game's webhook endpoints as operators manage them in the console (each change audited, and an event itself). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly queue: WebhookQueue,
    private readonly games: GamesService,
    private readonly audit: AuditService,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(KEY_ENCRYPTION_KEY) private readonly keyEncryptionKey: Buffer,
  ) {}

  async list(gameId: string): Promise<{ items: WebhookEndpointView[] }> {
    const game = await this.games.get(gameId);
    return { items: (await this.webhooks.endpoints(game.id)).map(toEndpointView) };
  }

  async create(gameId: string, input: WebhookEndpointInput, principal: OperatorPrincipal): Promise<CreatedWebhookEndpointView> {
    const game = await this.games.get(gameId);
    const now = new Date();
    const id = newId();
    const secret = newWebhookSecret();
    const row: EndpointRow = {
      id,
      application_id: game.id,
      url: this.checkedUrl(input.url),
      description: input.description ?? '',
      event_types: normalizedTypes(input.eventTypes),
      enabled: input.enabled ?? true,
      secret: sealWebhookSecret(this.keyEncryptionKey, id, secret),
      previous_secret: null,
      previous_secret_until: null,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.webhooks.data.transaction(async (manager) => {
      // One creation at a time per game, so two cannot both pass the limit.
      await manager.query(`SELECT 1 FROM identity.games WHERE id = $1 FOR UPDATE`, [game.id]);
      if ((await this.webhooks.countEndpoints(game.id, manager)) >= WEBHOOK_LIMITS.endpointsPerGame) {
        throw new AppError('WEBHOOK_ENDPOINT_LIMIT', `A game has at most ${WEBHOOK_LIMITS.endpointsPerGame} webhook endpoints`);
      }
      await this.webhooks.insertEndpoint(row, manager);
      await this.record(row, 'webhook_endpoint.created', principal, manager);
    });
    return { ...toEndpointView(row), secret };
  }

  async update(gameId: string, endpointId: string, input: Partial<WebhookEndpointInput>, principal: OperatorPrincipal): Promise<WebhookEndpointView> {
    return this.change(gameId, endpointId, async (row, manager) => {
      const enabling = input.enabled === true && !row.enabled;
      const changed: EndpointRow = {
        ...row,
        url: input.url === undefined ? row.url : this.checkedUrl(input.url),
        description: input.description ?? row.description,
        event_types: input.eventTypes === undefined ? row.event_types : normalizedTypes(input.eventTypes),
        enabled: input.enabled ?? row.enabled,
        // Turned on again by hand: a fresh start (the platform's reason, and the run of failures, are cleared).
        disabled_reason: enabling ? null : row.disabled_reason,
        disabled_at: enabling ? null : row.disabled_at,
        failing_since: enabling ? null : row.failing_since,
        updated_at: new Date(),
      };
      await this.webhooks.updateEndpoint(changed, manager);
      if (row.enabled && !changed.enabled) {
        await this.webhooks.failPending(row.id, 'endpoint disabled', manager);
      }
      await this.record(changed, 'webhook_endpoint.updated', principal, manager);
      return toEndpointView(changed);
    });
  }

  async delete(gameId: string, endpointId: string, principal: OperatorPrincipal): Promise<void> {
    await this.change(gameId, endpointId, async (row, manager) => {
      await this.webhooks.deleteEndpoint(row.id, manager);
      await this.record(row, 'webhook_endpoint.deleted', principal, manager);
    });
  }

  /**
   * A new secret; the one it replaces keeps signing beside it (two signatures on every delivery) for `overlapSeconds`,
   * so receivers can move to the new one without missing a delivery.
   */
  async rotateSecret(gameId: string, endpointId: string, overlapSeconds: number, principal: OperatorPrincipal): Promise<CreatedWebhookEndpointView> {
    const secret = newWebhookSecret();
    return this.change(gameId, endpointId, async (row, manager) => {
      const now = new Date();
      const rotated: EndpointRow = {
        ...row,
        secret: sealWebhookSecret(this.keyEncryptionKey, row.id, secret),
        previous_secret: overlapSeconds > 0 ? row.secret : null,
        previous_secret_until: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
        updated_at: now,
      };
      await this.webhooks.updateEndpoint(rotated, manager);
      await this.audit.record(
        {
          applicationId: row.application_id,
          principal,
          action: 'webhook_endpoint.secret_rotated',
          target: `webhook-endpoint:${row.id}`,
          details: { previousSecretUntil: rotated.previous_secret_until?.toISOString() ?? null },
        },
        manager,
      );
      return { ...toEndpointView(rotated), secret };
    });
  }

  /** A `webhook.test` event for this endpoint alone, delivered as any other. */
  async sendTest(gameId: string, endpointId: string, principal: OperatorPrincipal): Promise<WebhookDeliveryView> {
    const delivery = await this.change(gameId, endpointId, async (row, manager) => {
      const event = { id: newId(), type: 'webhook.test', gameId: row.application_id, timestamp: new Date().toISOString(), data: { endpointId: row.id, actor: `operator:${principal.operatorId}` } };
      await this.webhooks.insertEvents([event], manager);
      const [created] = await this.webhooks.insertDeliveries([{ eventId: event.id, endpointId: row.id }], manager);
      await this.queue.enqueue([created], manager);
      return created;
    });
    this.dispatcher.wake();
    return this.deliveryView(endpointId, delivery.deliveryId);
  }

  async deliveries(gameId: string, endpointId: string, page: PageRequest & { status?: WebhookDeliveryStatus }): Promise<Page<WebhookDeliveryView>> {
    const endpoint = await this.find(gameId, endpointId);
    const rows = await this.webhooks.deliveries(endpoint.id, page.limit + 1, decodeCursor(page.cursor), page.status);
    return pageOf(rows, page.limit, toDeliveryView);
  }

  /** One delivery again, at once, with a fresh retry schedule (whatever its state). */
  async redeliver(gameId: string, endpointId: string, deliveryId: string, principal: OperatorPrincipal): Promise<WebhookDeliveryView> {
    await this.change(gameId, endpointId, async (row, manager) => {
      const scheduled = isUuid(deliveryId) ? await this.webhooks.reschedule(row.id, deliveryId, manager) : undefined;
      if (scheduled === undefined) {
        throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', 'No delivery with this id for this endpoint');
      }
      await this.queue.enqueue([scheduled], manager);
      await this.audit.record({ applicationId: row.application_id, principal, action: 'webhook_delivery.redelivered', target: `webhook-endpoint:${row.id}`, details: { deliveryId } }, manager);
    });
    this.dispatcher.wake();
    return this.deliveryView(endpointId, deliveryId);
  }

  /** Every failed delivery of the endpoint since `since` again (at most {@link REDELIVER_FAILED_LIMIT}). */
  async redeliverFailed(gameId: string, endpointId: string, since: Date, principal: OperatorPrincipal): Promise<{ scheduled: number }> {
    const scheduled = await this.change(gameId, endpointId, async (row, manager) => {
      const deliveries = await this.webhooks.rescheduleFailed(row.id, since, REDELIVER_FAILED_LIMIT, manager);
      await this.queue.enqueue(deliveries, manager);
      await this.audit.record(
        { applicationId: row.application_id, principal, action: 'webhook_delivery.redelivered', target: `webhook-endpoint:${row.id}`, details: { since: since.toISOString(), scheduled: deliveries.length } },
        manager,
      );
      return deliveries.length;
    });
    this.dispatcher.wake();
    return { scheduled };
  }

  private async deliveryView(endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const row = await this.webhooks.delivery(endpointId, deliveryId);
    if (row === undefined) {
      throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', 'No delivery with this id for this endpoint');
    }
    return toDeliveryView(row);
  }

  private async find(gameId: string, endpointId: string): Promise<EndpointRow> {
    const game = await this.games.get(gameId);
    const row = isUuid(endpointId) ? await this.webhooks.endpoint(game.id, endpointId) : undefined;
    if (row === undefined) {
      throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND', 'No webhook endpoint with this id in this game');
    }
    return row;
  }

  /** Runs `work` on the endpoint, locked, in a transaction; 404 when the game has no such endpoint. */
  private async change<T>(gameId: string, endpointId: string, work: (row: EndpointRow, manager: EntityManager) => Promise<T>): Promise<T> {
    const game = await this.games.get(gameId);
    return this.webhooks.data.transaction(async (manager) => {
      const row = isUuid(endpointId) ? await this.webhooks.endpoint(game.id, endpointId, manager, true) : undefined;
      if (row === undefined) {
        throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND', 'No webhook endpoint with this id in this game');
      }
      return work(row, manager);
    });
  }

  private record(row: EndpointRow, action: string, principal: OperatorPrincipal, manager: EntityManager): Promise<void> {
    return this.audit.record(
      {
        applicationId: row.application_id,
        principal,
        action,
        target: `webhook-endpoint:${row.id}`,
        details: { url: recordedUrl(row.url), enabled: row.enabled, eventTypes: row.event_types },
      },
      manager,
    );
  }

  /**
   * The URL as stored, or 400: `https` only (and no user name or password in it) unless private URLs are allowed
   * (development); an address literal must be public. A host name's addresses are checked at each delivery.
   */
  private checkedUrl(value: string): string {
    const url = new URL(value);
    if (url.protocol !== 'https:' && !(this.config.webhooks.allowPrivateUrls && url.protocol === 'http:')) {
      throw new AppError('VALIDATION_FAILED', 'url must be an https URL');
    }
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.config.webhooks.allowPrivateUrls && (url.hostname === 'localhost' || (isIP(literal) !== 0 && !isPublicAddress(literal)))) {
      throw new AppError('VALIDATION_FAILED', 'url must not name a loopback, private, link-local or reserved address');
    }
    return url.toString();
  }
}

/** `["*"]`, or the catalogue types given (old names as their new ones), each once; anything else is refused. */
function normalizedTypes(types: readonly string[]): string[] {
  if (types.includes('*')) {
    return ['*'];
  }
  const normalized = types.map(currentEventType);
  const unknown: string | undefined = normalized.find((type: string) => !isWebhookEventType(type));
  if (unknown !== undefined) {
    throw new AppError('VALIDATION_FAILED', `eventTypes: ${JSON.stringify(unknown.slice(0, 64))} is not an event type`);
  }
  return [...new Set(normalized)];
}

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

export function toEndpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    previousSecretUntil: row.previous_secret_until !== null && row.previous_secret_until > new Date() ? row.previous_secret_until.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastAttemptAt: iso(row.last_attempt_at),
    responseStatus: row.response_status,
    responseBody: row.response_body,
    error: row.error,
    createdAt: row.created_at.toISOString(),
  };
}
