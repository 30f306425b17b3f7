import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { OutboxEventInput, WebhookDeliveryStatus } from '@game-wallet/contracts';
import { newId, rowsOf } from '@game-wallet/database';
import { DataSource } from 'typeorm';

interface QueryLike {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** A `identity.webhook_endpoints` row. */
export interface EndpointRow {
  id: string;
  application_id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A delivery with its event's type, as the log lists it. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  generation: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
}

/** What an attempt needs: the delivery, its endpoint and its event. */
export interface AttemptRow {
  id: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  generation: number;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  enabled: boolean;
  failing_since: Date | null;
  event_id: string;
  type: string;
  application_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
}

/** A delivery to make: its id, and the scheduling a job carries. */
export interface NewDelivery {
  deliveryId: string;
  generation: number;
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts, d.generation, d.next_attempt_at,
  d.last_attempt_at, d.response_status, d.response_body, d.error, d.created_at`;

/** The webhook tables of the identity schema: endpoints, the events taken for delivery, and each event's delivery to each endpoint. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() readonly data: DataSource) {}

  endpoints(applicationId: string): Promise<EndpointRow[]> {
    return this.data.query(`SELECT * FROM identity.webhook_endpoints WHERE application_id = $1 ORDER BY created_at, id`, [applicationId]);
  }

  async endpoint(applicationId: string, endpointId: string, manager: QueryLike = this.data, lock = false): Promise<EndpointRow | undefined> {
    const rows = (await manager.query(`SELECT * FROM identity.webhook_endpoints WHERE application_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [applicationId, endpointId])) as EndpointRow[];
    return rows[0];
  }

  async countEndpoints(applicationId: string, manager: QueryLike): Promise<number> {
    const rows = (await manager.query(`SELECT count(*)::int AS count FROM identity.webhook_endpoints WHERE application_id = $1`, [applicationId])) as { count: number }[];
    return rows[0].count;
  }

  async insertEndpoint(row: EndpointRow, manager: QueryLike): Promise<void> {
    await manager.query(
      `INSERT INTO identity.webhook_endpoints (id, application_id, url, description, event_types, enabled, secret, previous_secret, previous_secret_until,
         disabled_reason, disabled_at, failing_since, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [row.id, row.application_id, row.url, row.description, row.event_types, row.enabled, row.secret, row.previous_secret, row.previous_secret_until,
        row.disabled_reason, row.disabled_at, row.failing_since, row.created_at, row.updated_at],
    );
  }

  /** Writes every column an operator or the dispatcher may change. */
  async updateEndpoint(row: EndpointRow, manager: QueryLike): Promise<void> {
    await manager.query(
      `UPDATE identity.webhook_endpoints SET url = $2, description = $3, event_types = $4, enabled = $5, secret = $6, previous_secret = $7,
         previous_secret_until = $8, disabled_reason = $9, disabled_at = $10, failing_since = $11, updated_at = $12 WHERE id = $1`,
      [row.id, row.url, row.description, row.event_types, row.enabled, row.secret, row.previous_secret, row.previous_secret_until, row.disabled_reason,
        row.disabled_at, row.failing_since, row.updated_at],
    );
  }

  async deleteEndpoint(endpointId: string, manager: QueryLike): Promise<void> {
    await manager.query(`DELETE FROM identity.webhook_endpoints WHERE id = $1`, [endpointId]);
  }

  /** The enabled endpoints of these games, for routing events. */
  enabledEndpoints(applicationIds: string[], manager: QueryLike): Promise<Pick<EndpointRow, 'id' | 'application_id' | 'event_types' | 'created_at'>[]> {
    return manager.query(`SELECT id, application_id, event_types, created_at FROM identity.webhook_endpoints WHERE enabled AND application_id = ANY($1::uuid[])`, [
      applicationIds,
    ]) as Promise<Pick<EndpointRow, 'id' | 'application_id' | 'event_types' | 'created_at'>[]>;
  }

  /** Stores events not stored before (a relayed batch seen twice adds nothing); answers the ids it stored. */
  async insertEvents(events: readonly OutboxEventInput[], manager: QueryLike): Promise<Set<string>> {
    const rows = (await manager.query(
      `INSERT INTO identity.webhook_events (id, application_id, type, occurred_at, data)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::timestamptz[], $5::jsonb[])
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [events.map((e) => e.id), events.map((e) => e.gameId), events.map((e) => e.type), events.map((e) => e.timestamp), events.map((e) => JSON.stringify(e.data))],
    )) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  /** New pending deliveries, each due now; answers them for the queue. */
  async insertDeliveries(pairs: readonly { eventId: string; endpointId: string }[], manager: QueryLike): Promise<NewDelivery[]> {
    if (pairs.length === 0) {
      return [];
    }
    const ids = pairs.map(() => newId());
    await manager.query(
      `INSERT INTO identity.webhook_deliveries (id, endpoint_id, event_id, status, attempts, generation, next_attempt_at, created_at)
       SELECT id, endpoint_id, event_id, 'pending', 0, 0, now(), now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS d(id, endpoint_id, event_id)`,
      [ids, pairs.map((pair) => pair.endpointId), pairs.map((pair) => pair.eventId)],
    );
    return ids.map((deliveryId) => ({ deliveryId, generation: 0 }));
  }

  /** What the attempts of these deliveries need, in one read (deliveries since deleted are absent). */
  attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    return this.data.query(
      `SELECT d.id, d.status, d.attempts, d.generation, w.id AS endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_until, w.enabled,
              w.failing_since, e.id AS event_id, e.type, e.application_id, e.occurred_at, e.data
       FROM identity.webhook_deliveries d JOIN identity.webhook_endpoints w ON w.id = d.endpoint_id JOIN identity.webhook_events e ON e.id = d.event_id
       WHERE d.id = ANY($1::uuid[])`,
      [deliveryIds],
    ) as Promise<AttemptRow[]>;
  }

  /** Locks these endpoints' rows in id order (every transaction that changes several does so first: no deadlock). */
  async lockEndpoints(endpointIds: readonly string[], manager: QueryLike): Promise<void> {
    if (endpointIds.length > 0) {
      await manager.query(`SELECT id FROM identity.webhook_endpoints WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [endpointIds]);
    }
  }

  /** Records successful attempts, any number in one statement (each only for its scheduling, as {@link recordAttempt}). */
  async recordSuccesses(successes: readonly { deliveryId: string; generation: number; responseStatus: number | null; responseBody: string | null }[], manager: QueryLike): Promise<void> {
    if (successes.length === 0) {
      return;
    }
    await manager.query(
      `UPDATE identity.webhook_deliveries AS d SET status = 'succeeded', attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = NULL,
         response_status = s.response_status, response_body = s.response_body, error = NULL
       FROM unnest($1::uuid[], $2::integer[], $3::integer[], $4::varchar[]) AS s(id, generation, response_status, response_body)
       WHERE d.id = ANY($1::uuid[]) AND d.id = s.id AND d.generation = s.generation AND d.status = 'pending'`,
      [successes.map((s) => s.deliveryId), successes.map((s) => s.generation), successes.map((s) => s.responseStatus), successes.map((s) => s.responseBody)],
    );
  }

  /**
   * Records an attempt of the delivery's scheduling `generation` (nothing when another scheduling superseded it):
   * its outcome, and `next` (pending again, one scheduling on, due then) or its end (`succeeded`, `failed`).
   */
  async recordAttempt(
    deliveryId: string,
    generation: number,
    outcome: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null; responseStatus: number | null; responseBody: string | null; error: string | null },
    manager: QueryLike,
  ): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(
      await manager.query(
        `UPDATE identity.webhook_deliveries SET status = $3::varchar, attempts = attempts + 1, generation = generation + CASE WHEN $3::varchar = 'pending' THEN 1 ELSE 0 END,
           last_attempt_at = now(), next_attempt_at = $4, response_status = $5, response_body = $6, error = $7
         WHERE id = $1 AND generation = $2 AND status = 'pending' RETURNING id`,
        [deliveryId, generation, outcome.status, outcome.nextAttemptAt, outcome.responseStatus, outcome.responseBody, outcome.error?.slice(0, 300) ?? null],
      ),
    );
    return rows.length === 1;
  }

  /** The endpoint's run of failures: started now unless one runs; answers when it started and whether the endpoint is enabled. */
  async markFailing(endpointId: string, manager: QueryLike): Promise<{ failing_since: Date; enabled: boolean } | undefined> {
    return rowsOf<{ failing_since: Date; enabled: boolean }>(
      await manager.query(
        `UPDATE identity.webhook_endpoints SET failing_since = COALESCE(failing_since, now()) WHERE id = $1 RETURNING failing_since, enabled`,
        [endpointId],
      ),
    )[0];
  }

  /** Ends the endpoints' runs of failures (an attempt succeeded). */
  async markSucceeding(endpointIds: readonly string[], manager: QueryLike): Promise<void> {
    if (endpointIds.length > 0) {
      await manager.query(`UPDATE identity.webhook_endpoints SET failing_since = NULL WHERE id = ANY($1::uuid[]) AND failing_since IS NOT NULL`, [endpointIds]);
    }
  }

  /** Ends every pending delivery of the endpoint (it was disabled or deleted): `failed`, with why. */
  async failPending(endpointId: string, error: string, manager: QueryLike): Promise<void> {
    await manager.query(
      `UPDATE identity.webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = $2, generation = generation + 1
       WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId, error],
    );
  }

  /** A delivery scheduled again, due now, with a fresh retry schedule; answers its new scheduling. */
  async reschedule(endpointId: string, deliveryId: string, manager: QueryLike): Promise<NewDelivery | undefined> {
    const rows = rowsOf<{ id: string; generation: number }>(
      await manager.query(
        `UPDATE identity.webhook_deliveries SET status = 'pending', attempts = 0, generation = generation + 1, next_attempt_at = now()
         WHERE id = $1 AND endpoint_id = $2 RETURNING id, generation`,
        [deliveryId, endpointId],
      ),
    );
    return rows[0] === undefined ? undefined : { deliveryId: rows[0].id, generation: rows[0].generation };
  }

  /** Every failed delivery of the endpoint made since `since`, scheduled again (at most `limit`). */
  async rescheduleFailed(endpointId: string, since: Date, limit: number, manager: QueryLike): Promise<NewDelivery[]> {
    const rows = rowsOf<{ id: string; generation: number }>(
      await manager.query(
        `UPDATE identity.webhook_deliveries SET status = 'pending', attempts = 0, generation = generation + 1, next_attempt_at = now()
         WHERE id IN (SELECT id FROM identity.webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2 ORDER BY id LIMIT $3)
         RETURNING id, generation`,
        [endpointId, since, limit],
      ),
    );
    return rows.map((row) => ({ deliveryId: row.id, generation: row.generation }));
  }

  async delivery(endpointId: string, deliveryId: string, manager: QueryLike = this.data): Promise<DeliveryRow | undefined> {
    const rows = (await manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM identity.webhook_deliveries d JOIN identity.webhook_events e ON e.id = d.event_id WHERE d.id = $1 AND d.endpoint_id = $2`,
      [deliveryId, endpointId],
    )) as DeliveryRow[];
    return rows[0];
  }

  /** The endpoint's deliveries, newest first, strictly older than `beforeId`, of one status when given. */
  deliveries(endpointId: string, limit: number, beforeId?: string, status?: WebhookDeliveryStatus): Promise<DeliveryRow[]> {
    return this.data.query(
      `SELECT ${DELIVERY_COLUMNS} FROM identity.webhook_deliveries d JOIN identity.webhook_events e ON e.id = d.event_id
       WHERE d.endpoint_id = $1 AND ($2::uuid IS NULL OR d.id < $2) AND ($3::varchar IS NULL OR d.status = $3)
       ORDER BY d.id DESC LIMIT $4`,
      [endpointId, beforeId ?? null, status ?? null, limit],
    );
  }

  /**
   * Pending deliveries overdue by more than `overdue` ms: their job was lost (it failed every retry of the queue). Each
   * is scheduled again, due now, one scheduling on; answers them for the queue.
   */
  async rescheduleOverdue(overdueMs: number, limit: number, manager: QueryLike): Promise<NewDelivery[]> {
    const rows = rowsOf<{ id: string; generation: number }>(
      await manager.query(
        `UPDATE identity.webhook_deliveries SET generation = generation + 1, next_attempt_at = now()
         WHERE id IN (SELECT id FROM identity.webhook_deliveries WHERE status = 'pending' AND next_attempt_at < now() - $1 * interval '1 millisecond'
                      ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id, generation`,
        [overdueMs, limit],
      ),
    );
    return rows.map((row) => ({ deliveryId: row.id, generation: row.generation }));
  }

  /** Forgets events (and their deliveries) received before `before`, `batch` at a time; answers how many. */
  async prune(before: Date, batch = 1_000): Promise<number> {
    const rows = rowsOf<{ id: string }>(
      await this.data.query(
        `DELETE FROM identity.webhook_events WHERE id IN (SELECT id FROM identity.webhook_events WHERE received_at < $1 LIMIT $2) RETURNING id`,
        [before, batch],
      ),
    );
    return rows.length;
  }
}
