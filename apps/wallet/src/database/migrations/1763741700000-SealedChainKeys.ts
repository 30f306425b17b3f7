import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sealed chain keys (keys/chain-key-envelope.ts): each wallet's three chain private keys under its data key, so that a
 * signature opens one key instead of re-deriving it from the entropy. Nullable: wallets made before keep signing from
 * their entropy until `npm run rewrap -- --chain-keys` fills the three columns together. Adding nullable columns
 * without a default rewrites nothing (the check reads the table once, every row null). A row has all three or none.
 */
export class SealedChainKeys1763741700000 implements MigrationInterface {
  name = 'SealedChainKeys1763741700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE wallet.wallets
        ADD COLUMN sealed_evm_key bytea,
        ADD COLUMN sealed_sol_key bytea,
        ADD COLUMN sealed_sui_key bytea,
        ADD CONSTRAINT wallets_sealed_chain_keys_together CHECK (
          (sealed_evm_key IS NULL AND sealed_sol_key IS NULL AND sealed_sui_key IS NULL)
          OR (sealed_evm_key IS NOT NULL AND sealed_sol_key IS NOT NULL AND sealed_sui_key IS NOT NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE wallet.wallets DROP CONSTRAINT wallets_sealed_chain_keys_together,
        DROP COLUMN sealed_evm_key, DROP COLUMN sealed_sol_key, DROP COLUMN sealed_sui_key`);
  }
}
