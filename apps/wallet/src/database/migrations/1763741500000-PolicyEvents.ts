import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail of games' signing policies: one row per change, with the operator, their client address and the
 * policy before and after. Only adds a table: the previous release keeps working during a rolling update (its
 * changes are not recorded until it is replaced).
 */
export class PolicyEvents1763741500000 implements MigrationInterface {
  name = 'PolicyEvents1763741500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE wallet.policy_events (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        at timestamptz NOT NULL,
        actor varchar(400) NOT NULL,
        action varchar(64) NOT NULL,
        target varchar(400) NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await queryRunner.query(`CREATE INDEX policy_events_application_idx ON wallet.policy_events (application_id, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE wallet.policy_events');
  }
}
