import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each game's signing policy (a game without a row has the default one), and the decision of each recorded signing
 * attempt: allowed, or denied by the policy. Only adds: the previous release keeps working during a rolling update.
 */
export class SigningPolicies1763741300000 implements MigrationInterface {
  name = 'SigningPolicies1763741300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE wallet.signing_policies (application_id uuid PRIMARY KEY, policy jsonb NOT NULL, updated_at timestamptz NOT NULL)`,
    );
    await queryRunner.query(`ALTER TABLE wallet.signature_events ADD COLUMN decision varchar(8) NOT NULL DEFAULT 'allowed'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.signature_events DROP COLUMN decision`);
    await queryRunner.query(`DROP TABLE wallet.signing_policies`);
  }
}
