import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OutboxEventInput, RENAMED_EVENT_TYPES } from '@game-wallet/contracts';
import { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { KEY_ENCRYPTION_KEY } from '../tokens/key-encryption-key';
import { retryDelayMs } from './retry-schedule';
import { HostResolver } from './webhook-address-guard';
import { DeliveryJob, WebhookQueue } from './webhook-queue';
import { openWebhookSecret, webhookSignature } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';
import { AttemptRow, WebhooksRepository } from './webhooks.repository';

/** How host names are resolved for deliveries (tests give answers of their own). */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/** Answers are read up to this many bytes (the rest is dropped with the connection). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** Delivered events (and their deliveries) are kept this long for the log and redelivery. */
const RETENTION_MS = 30 * 86_400_000;

interface QueryLike {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Delivers events to a game's webhook endpoints. {@link ingest} takes events from the outboxes (in the relay's
 * transaction) and makes one delivery per subscribed endpoint, each a job on the {@link WebhookQueue}; each replica
 * runs workers that make the attempts: the body signed with the endpoint's secret (and its previous one during a
 * rotation), then the outcome recorded and, after a failure, the next attempt scheduled by the retry schedule. An
 * endpoint that has failed every attempt for `WEBHOOK_DISABLE_AFTER_SECONDS` is disabled, with the reason, audited.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly sender: WebhookSender;
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly queue: WebhookQueue,
    private readonly audit: AuditService,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(KEY_ENCRYPTION_KEY) private readonly keyEncryptionKey: Buffer,
    @Inject(WEBHOOK_RESOLVER) resolve: HostResolver,
  ) {
    this.sender = new WebhookSender({
      timeoutMs: config.webhooks.timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      allowPrivate: config.webhooks.allowPrivateUrls,
      resolve,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.work(4, 16, (jobs) => this.attemptAll(jobs));
    const prune = (): void => void this.webhooks.prune(new Date(Date.now() - RETENTION_MS)).catch(() => undefined);
    this.pruneTimer = setInterval(prune, 3_600_000);
    this.pruneTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruneTimer);
    this.sender.close();
  }

  /**
   * Takes a batch of events (in `manager`'s transaction, the one that removes them from an outbox): each event is
   * stored once (an id seen before is skipped) with a delivery for each enabled endpoint of its game subscribed to
   * its type; events no endpoint wants are not kept. Call {@link wake} once the transaction has committed.
   */
  async ingest(events: readonly OutboxEventInput[], manager: QueryLike): Promise<number> {
    const games = [...new Set(events.map((event) => event.gameId))];
    const endpoints = games.length === 0 ? [] : await this.webhooks.enabledEndpoints(games, manager);
    // An endpoint gets the events of changes made since it was added (a batch relayed late brings it no older ones).
    const routes = (event: OutboxEventInput) =>
      endpoints.filter((endpoint) => endpoint.application_id === event.gameId && endpoint.created_at <= new Date(event.timestamp) && subscribes(endpoint.event_types, event.type));
    const wanted = events.filter((event) => routes(event).length > 0);
    if (wanted.length === 0) {
      return 0;
    }
    const stored = await this.webhooks.insertEvents(wanted, manager);
    const pairs = wanted
      .filter((event) => stored.has(event.id))
      .flatMap((event) => routes(event).map((endpoint) => ({ eventId: event.id, endpointId: endpoint.id })));
    await this.queue.enqueue(await this.webhooks.insertDeliveries(pairs, manager), manager);
    return pairs.length;
  }

  /** Deliveries were committed: this replica's workers look now. */
  wake(): void {
    this.queue.wake();
  }

  private async attemptAll(jobs: DeliveryJob[]): Promise<void> {
    await Promise.all(
      jobs.map((job) =>
        this.attempt(job).catch((error: unknown) => {
          // The job is failed and tried again by the queue (the delivery's scheduling did not move on).
          this.logger.warn(`A webhook attempt could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
          throw error;
        }),
      ),
    );
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    const row = await this.webhooks.attempt(job.deliveryId);
    if (row === undefined || row.status !== 'pending' || row.generation !== job.generation) {
      return; // deleted, finished, or scheduled again since this job was made
    }
    if (!row.enabled) {
      await this.webhooks.recordAttempt(row.id, row.generation, { status: 'failed', nextAttemptAt: null, responseStatus: null, responseBody: null, error: 'endpoint disabled' }, this.webhooks.data);
      return;
    }
    const body = JSON.stringify({ id: row.event_id, type: row.type, timestamp: row.occurred_at.toISOString(), gameId: row.application_id, data: row.data });
    const now = new Date();
    const headers = {
      'webhook-id': row.event_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': webhookSignature(this.secretsOf(row, now), row.event_id, now, body),
    };
    const result = await this.sender.post(row.url, headers, body);
    await this.webhooks.data.transaction(async (manager) => {
      // The endpoint's row first, then the delivery's, as every transaction that touches both: none waits on another in a cycle.
      if (result.ok) {
        await this.webhooks.markSucceeding(row.endpoint_id, manager);
        await this.webhooks.recordAttempt(row.id, row.generation, { status: 'succeeded', nextAttemptAt: null, responseStatus: result.status, responseBody: result.body, error: null }, manager);
        return;
      }
      const failing = await this.webhooks.markFailing(row.endpoint_id, manager);
      const failingFor = failing === undefined ? 0 : Date.now() - failing.failing_since.getTime();
      const disable = failing?.enabled === true && failingFor >= this.config.webhooks.disableAfterSeconds * 1000;
      const delay = disable ? null : retryDelayMs(row.attempts + 1, this.config.webhooks.retryScheduleSeconds);
      const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay);
      const outcome = { status: nextAttemptAt === null ? ('failed' as const) : ('pending' as const), nextAttemptAt, responseStatus: result.status, responseBody: result.body, error: result.error };
      if (!(await this.webhooks.recordAttempt(row.id, row.generation, outcome, manager))) {
        return;
      }
      if (nextAttemptAt !== null) {
        await this.queue.enqueue([{ deliveryId: row.id, generation: row.generation + 1, startAfter: nextAttemptAt }], manager);
      }
      if (disable) {
        await this.disable(row, failingFor, result.error ?? 'failed', manager);
      }
    });
  }

  /** The endpoint's current secret, and the one it replaced while that one still signs (rotation). */
  private secretsOf(row: AttemptRow, now: Date): string[] {
    const current = openWebhookSecret(this.keyEncryptionKey, row.endpoint_id, row.secret);
    const previous =
      row.previous_secret !== null && row.previous_secret_until !== null && row.previous_secret_until > now
        ? [openWebhookSecret(this.keyEncryptionKey, row.endpoint_id, row.previous_secret)]
        : [];
    return [current, ...previous];
  }

  private async disable(row: AttemptRow, failingForMs: number, lastError: string, manager: EntityManager): Promise<void> {
    const hours = Math.round(failingForMs / 360_000) / 10;
    const reason = `Every attempt failed for ${hours} h (last: ${lastError})`.slice(0, 300);
    await manager.query(
      `UPDATE identity.webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE id = $1 AND enabled`,
      [row.endpoint_id, reason],
    );
    await this.webhooks.failPending(row.endpoint_id, 'endpoint disabled', manager);
    await this.audit.record(
      {
        applicationId: row.application_id,
        principal: { kind: 'system' },
        action: 'webhook_endpoint.disabled',
        target: `webhook-endpoint:${row.endpoint_id}`,
        details: { url: row.url, enabled: false, reason },
      },
      manager,
    );
    this.logger.warn(`Webhook endpoint ${row.endpoint_id} of game ${row.application_id} disabled: ${reason}`);
  }
}

/** Whether an endpoint subscribed to `["*"]` or to this type (an old name of it counts). */
export function subscribes(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.some((subscribed) => subscribed === '*' || subscribed === type || RENAMED_EVENT_TYPES[subscribed] === type);
}
