import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first owner of an instance can be invited from the command line (`npm run operator:create`), when no operator
 * exists yet to be the inviter: such an invitation has no `invited_by`.
 */
export class CommandLineInvitations1763741800000 implements MigrationInterface {
  name = 'CommandLineInvitations1763741800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE identity.operator_invitations ALTER COLUMN invited_by DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX operator_invitations_created_idx ON identity.operator_invitations (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX identity.operator_invitations_created_idx`);
    await queryRunner.query(`DELETE FROM identity.operator_invitations WHERE invited_by IS NULL`);
    await queryRunner.query(`ALTER TABLE identity.operator_invitations ALTER COLUMN invited_by SET NOT NULL`);
  }
}
