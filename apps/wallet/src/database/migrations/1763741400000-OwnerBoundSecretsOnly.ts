import { MigrationInterface, QueryRunner } from 'typeorm';
import { OWNER_BOUND_CONSTRAINT, retireVersion1IfUnused } from '../../keys/owner-binding';

/**
 * Retires version-1 secrets where none is left (every new database): from then on `wallet.wallets` takes no version-1
 * row and the service opens none (see keys/owner-binding.ts). Where some are left, `npm run rewrap` does it when done.
 */
export class OwnerBoundSecretsOnly1763741400000 implements MigrationInterface {
  name = 'OwnerBoundSecretsOnly1763741400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await retireVersion1IfUnused((sql, parameters) => queryRunner.query(sql, parameters));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE wallet.wallets DROP CONSTRAINT IF EXISTS ${OWNER_BOUND_CONSTRAINT}`);
  }
}
