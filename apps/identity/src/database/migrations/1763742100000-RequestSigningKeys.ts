import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed requests (RFC 9421): an API key may require them (`signed_requests`: off, signing, all) and registers up to
 * three public keys to check them with, each named by its RFC 7638 thumbprint. Deleting the API key deletes its keys.
 */
export class RequestSigningKeys1763742100000 implements MigrationInterface {
  name = 'RequestSigningKeys1763742100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "identity"."api_keys" ADD COLUMN "signed_requests" varchar(8) NOT NULL DEFAULT 'off'
         CONSTRAINT "api_keys_signed_requests" CHECK ("signed_requests" IN ('off', 'signing', 'all'))`,
    );
    await queryRunner.query(`
      CREATE TABLE "identity"."request_signing_keys" (
        "api_key_id" uuid NOT NULL REFERENCES "identity"."api_keys" ("id") ON DELETE CASCADE,
        "id" varchar(43) NOT NULL,
        "application_id" uuid NOT NULL,
        "name" varchar(100) NOT NULL,
        "algorithm" varchar(20) NOT NULL CHECK ("algorithm" IN ('ed25519', 'ecdsa-p256-sha256')),
        "public_key" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL,
        "last_used_at" timestamptz,
        PRIMARY KEY ("api_key_id", "id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."request_signing_keys"`);
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" DROP COLUMN "signed_requests"`);
  }
}
