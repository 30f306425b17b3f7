import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's own schema holds one table: the answers kept for `Idempotency-Key` (idempotency-store.ts). A row is
 * claimed by the first request of a key (`owner`, until `locked_until`), then holds its answer until `expires_at`.
 * Keys are stored as their SHA-256 only; an answer is sealed under a key derived from the Idempotency-Key itself.
 * Keeping an answer changes no indexed column and pages are left half free, so it is a heap-only (HOT) update.
 */
export class IdempotencyKeys1763742100000 implements MigrationInterface {
  name = 'IdempotencyKeys1763742100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "gateway"."idempotency_keys" (
        "credential" text NOT NULL,
        "route" text NOT NULL,
        "key_hash" bytea NOT NULL,
        "body_hash" bytea NOT NULL,
        "owner" uuid,
        "locked_until" timestamptz,
        "status" smallint,
        "answer" bytea,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        PRIMARY KEY ("credential", "route", "key_hash")
      ) WITH (fillfactor = 50)`);
    await queryRunner.query(`CREATE INDEX "idempotency_keys_expiry" ON "gateway"."idempotency_keys" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."idempotency_keys"`);
  }
}
