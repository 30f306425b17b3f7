import { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxDownSql, outboxUpSql } from '@game-wallet/database';
import { WEBHOOK_QUEUE_SCHEMA, webhookQueueInstallSql } from '../../webhooks/webhook-queue-schema';

/**
 * Events and webhooks: identity's outbox (libs/database/src/outbox.ts), a game's webhook endpoints, the events the
 * dispatcher took from every service's outbox (one row per event id: a relayed batch seen twice adds nothing), and
 * each event's delivery to each endpoint. The delivery queue itself is pg-boss, in its own schema (WEBHOOK_QUEUE_SCHEMA).
 */
export class Webhooks1763742000000 implements MigrationInterface {
  name = 'Webhooks1763742000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of outboxUpSql('identity')) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(`CREATE TABLE identity.webhook_endpoints (
      id uuid PRIMARY KEY,
      application_id uuid NOT NULL REFERENCES identity.games (id) ON DELETE CASCADE,
      url varchar(2048) NOT NULL,
      description varchar(200) NOT NULL DEFAULT '',
      event_types varchar(64)[] NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_until timestamptz,
      disabled_reason varchar(300),
      disabled_at timestamptz,
      failing_since timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX webhook_endpoints_game_idx ON identity.webhook_endpoints (application_id)`);
    await queryRunner.query(`CREATE TABLE identity.webhook_events (
      id uuid PRIMARY KEY,
      application_id uuid NOT NULL,
      type varchar(64) NOT NULL,
      occurred_at timestamptz NOT NULL,
      data jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE identity.webhook_deliveries (
      id uuid PRIMARY KEY,
      endpoint_id uuid NOT NULL REFERENCES identity.webhook_endpoints (id) ON DELETE CASCADE,
      event_id uuid NOT NULL REFERENCES identity.webhook_events (id) ON DELETE CASCADE,
      status varchar(16) NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      generation integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      response_status integer,
      response_body varchar(256),
      error varchar(300),
      created_at timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_idx ON identity.webhook_deliveries (event_id, endpoint_id)`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint_idx ON identity.webhook_deliveries (endpoint_id, id)`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_pending_idx ON identity.webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX webhook_events_received_idx ON identity.webhook_events (received_at)`);
    // The queue: its schema made here unless it exists (roles.sql makes it for a least-privilege role), then pg-boss's tables.
    const found = (await queryRunner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [WEBHOOK_QUEUE_SCHEMA])) as unknown[];
    if (found.length === 0) {
      await queryRunner.query(`CREATE SCHEMA ${WEBHOOK_QUEUE_SCHEMA}`);
    }
    await queryRunner.query(webhookQueueInstallSql());
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA ${WEBHOOK_QUEUE_SCHEMA} CASCADE`);
    await queryRunner.query(`DROP TABLE identity.webhook_deliveries`);
    await queryRunner.query(`DROP TABLE identity.webhook_events`);
    await queryRunner.query(`DROP TABLE identity.webhook_endpoints`);
    for (const statement of outboxDownSql('identity')) {
      await queryRunner.query(statement);
    }
  }
}
