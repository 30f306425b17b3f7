import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which associated data a wallet's sealed secret is bound to (see keys/envelope.ts): 1 for rows made before secrets
 * were bound to their owner, 2 from now on. `npm run rewrap` moves version-1 rows to version 2.
 */
export class OwnerBoundSecrets1763741100000 implements MigrationInterface {
  name = 'OwnerBoundSecrets1763741100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.wallets ADD COLUMN aad_version smallint NOT NULL DEFAULT 1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.wallets DROP COLUMN aad_version`);
  }
}
