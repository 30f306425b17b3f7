import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each recorded signature signed: a message, a transaction or typed data (`message_sha256` then holds the
 * SHA-256 of those bytes). Rows made before are messages. Only adds a column with a default: the previous release
 * keeps writing rows during a rolling update.
 */
export class SigningOperations1763741200000 implements MigrationInterface {
  name = 'SigningOperations1763741200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.signature_events ADD COLUMN operation varchar(16) NOT NULL DEFAULT 'message'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.signature_events DROP COLUMN operation`);
  }
}
