import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OutboxEventInput, currentEventType } from '@game-wallet/contracts';
import { LRUCache } from 'lru-cache';
import { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { KEY_ENCRYPTION_KEY } from '../tokens/key-encryption-key';
import { retryDelayMs } from './retry-schedule';
import { HostResolver } from './webhook-address-guard';
import { DeliveryJob, WebhookQueue } from './webhook-queue';
import { openWebhookSecret, webhookSignature } from './webhook-secrets';
import { WebhookAttemptResult, WebhookSender, recordedUrl } from './webhook-sender';
import { AttemptRow, WebhooksRepository } from './webhooks.repository';

/** How host names are resolved for deliveries (tests give answers of their own). */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/** Answers are read up to this many bytes (the rest is dropped with the connection). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** What an attempt on a disabled endpoint records (nothing is sent). */
const DISABLED: WebhookAttemptResult = { ok: false, status: null, body: null, error: 'endpoint disabled' };

/** A pending delivery this late has lost its job (the queue retries a failed job for about 2 minutes). */
const OVERDUE_MS = 10 * 60_000;

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
  private readonly secrets = new LRUCache<string, string>({ max: 1_000 });
  private pruneTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;

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
    // Jobs carry up to 50 deliveries each: 4 loops of 2 jobs, up to 400 attempts in flight per replica.
    await this.queue.work(4, 2, (jobs) => this.attemptAll(jobs));
    const prune = (): void => void this.webhooks.prune(new Date(Date.now() - RETENTION_MS)).catch(() => undefined);
    this.pruneTimer = setInterval(prune, 3_600_000);
    this.pruneTimer.unref();
    this.sweepTimer = setInterval(() => void this.rescheduleOverdue().catch((error: unknown) => this.logger.warn(`Looking for lost webhook jobs failed: ${messageOf(error)}`)), 60_000);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruneTimer);
    clearInterval(this.sweepTimer);
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

  /**
   * The attempts of a batch of deliveries: read together, made concurrently, recorded together in one transaction (the
   * endpoints' rows locked first, in id order, then the deliveries'). Throws only when the outcomes could not be
   * recorded: the queue then tries the batch's jobs again, and deliveries recorded meanwhile are skipped.
   */
  private async attemptAll(jobs: DeliveryJob[]): Promise<void> {
    const wanted = new Map(jobs.map((job) => [job.deliveryId, job.generation]));
    // Deleted, finished, or scheduled again since the job was made: nothing to do.
    const rows = (await this.webhooks.attempts([...wanted.keys()])).filter((row) => row.status === 'pending' && row.generation === wanted.get(row.id));
    if (rows.length === 0) {
      return;
    }
    const outcomes = await Promise.all(rows.map(async (row) => ({ row, result: row.enabled ? await this.send(row) : DISABLED })));
    try {
      await this.webhooks.data.transaction((manager) => this.record(outcomes, manager));
    } catch (error) {
      // One outcome that cannot be recorded must not hold the others (of other games, maybe) back: each alone.
      this.logger.warn(`Webhook attempts could not be recorded together; recording each alone: ${messageOf(error)}`);
      const alone = await Promise.allSettled(outcomes.map((outcome) => this.webhooks.data.transaction((manager) => this.record([outcome], manager))));
      const failed = alone.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed.length > 0) {
        this.logger.warn(`${failed.length} webhook attempts could not be recorded; they are tried again: ${messageOf(failed[0].reason)}`);
        throw failed[0].reason;
      }
    }
  }

  /** Records outcomes in `manager`'s transaction: the endpoints' rows locked first, in id order, then the deliveries'. */
  private async record(outcomes: readonly { row: AttemptRow; result: WebhookAttemptResult }[], manager: EntityManager): Promise<void> {
    const succeeded = outcomes.filter((outcome) => outcome.result.ok);
    const failed = outcomes.filter((outcome) => !outcome.result.ok);
    const recovering = [...new Set(succeeded.filter((outcome) => outcome.row.failing_since !== null).map((outcome) => outcome.row.endpoint_id))];
    const failing = [...new Set(failed.filter((outcome) => outcome.row.enabled).map((outcome) => outcome.row.endpoint_id))];
    await this.webhooks.lockEndpoints([...recovering, ...failing].sort(), manager);
    await this.webhooks.markSucceeding(recovering, manager);
    await this.webhooks.recordSuccesses(
      succeeded.map(({ row, result }) => ({ deliveryId: row.id, generation: row.generation, responseStatus: result.status, responseBody: result.body })),
      manager,
    );
    for (const { row, result } of failed) {
      await this.recordFailure(row, result, manager);
    }
  }

  /**
   * Deliveries whose job was lost for good (it failed every retry of the queue, say while the database was away) are
   * pending past their time: each is scheduled again, so none waits forever.
   */
  private async rescheduleOverdue(): Promise<void> {
    const scheduled = await this.webhooks.data.transaction(async (manager) => {
      const overdue = await this.webhooks.rescheduleOverdue(OVERDUE_MS, 1_000, manager);
      await this.queue.enqueue(overdue, manager);
      return overdue.length;
    });
    if (scheduled > 0) {
      this.logger.warn(`${scheduled} webhook deliveries had lost their job; scheduled again`);
      this.wake();
    }
  }

  /** One POST of the event, signed (Standard Webhooks) with the endpoint's secrets. */
  private send(row: AttemptRow): Promise<WebhookAttemptResult> {
    const body = JSON.stringify({ id: row.event_id, type: row.type, timestamp: row.occurred_at.toISOString(), gameId: row.application_id, data: row.data });
    const now = new Date();
    const headers = {
      'webhook-id': row.event_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': webhookSignature(this.secretsOf(row, now), row.event_id, now, body),
    };
    return this.sender.post(row.url, headers, body);
  }

  /**
   * A failed attempt: the endpoint's run of failures goes on (or starts); the delivery is pending again, due at the
   * schedule's next step with its job, or failed when the schedule is spent; and the endpoint is disabled once it has
   * failed every attempt for the window.
   */
  private async recordFailure(row: AttemptRow, result: WebhookAttemptResult, manager: EntityManager): Promise<void> {
    const failing = row.enabled ? await this.webhooks.markFailing(row.endpoint_id, manager) : undefined;
    const failingFor = failing === undefined ? 0 : Date.now() - failing.failing_since.getTime();
    const disable = failing?.enabled === true && failingFor >= this.config.webhooks.disableAfterSeconds * 1000;
    const delay = disable || !row.enabled ? null : retryDelayMs(row.attempts + 1, this.config.webhooks.retryScheduleSeconds);
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
  }

  /** The endpoint's current secret, and the one it replaced while that one still signs (rotation). */
  private secretsOf(row: AttemptRow, now: Date): string[] {
    const current = this.opened(row.endpoint_id, row.secret);
    const previous = row.previous_secret !== null && row.previous_secret_until !== null && row.previous_secret_until > now ? [this.opened(row.endpoint_id, row.previous_secret)] : [];
    return [current, ...previous];
  }

  /** A sealed secret, opened once per replica (kept by its sealed form: a rotation seals a new one). */
  private opened(endpointId: string, sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = openWebhookSecret(this.keyEncryptionKey, endpointId, sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
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
        details: { url: recordedUrl(row.url), enabled: false, reason },
      },
      manager,
    );
    this.logger.warn(`Webhook endpoint ${row.endpoint_id} of game ${row.application_id} disabled: ${reason}`);
  }
}

/** Whether an endpoint subscribed to `["*"]` or to this type (an old name of it counts). */
export function subscribes(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.some((subscribed) => subscribed === '*' || currentEventType(subscribed) === type);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
