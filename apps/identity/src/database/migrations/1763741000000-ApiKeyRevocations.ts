import { MigrationInterface, QueryRunner } from 'typeorm';

/** Revocations of the profile tokens a deleted API key issued (`DELETE …/api-keys/{id}?revokeTokens=true`). */
export class ApiKeyRevocations1763741000000 implements MigrationInterface {
  name = 'ApiKeyRevocations1763741000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign key: the key itself is deleted in the same transaction.
    await queryRunner.query(`
      CREATE TABLE identity.api_key_revocations (
        api_key_id uuid PRIMARY KEY,
        application_id uuid NOT NULL REFERENCES identity.games (id),
        revoked_before timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX api_key_revocations_revoked_before_idx ON identity.api_key_revocations (revoked_before)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE identity.api_key_revocations`);
  }
}
