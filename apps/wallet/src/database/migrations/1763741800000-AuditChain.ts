import { MigrationInterface, QueryRunner } from 'typeorm';
import { auditChainDownSql, auditChainUpSql } from '@game-wallet/database';

/**
 * The audit trail's hash chain (libs/database/src/audit-chain-sql.ts): one chain per game over both of the wallet's
 * audit tables (signing attempts and signing-policy changes), and each row's place in it. Nullable columns, so adding
 * them rewrites nothing; rows from before are chained, oldest first, by the service once it runs
 * (signatures/audit-chainer.ts), as are any a previous release writes during a rollout.
 */
export class AuditChain1763741800000 implements MigrationInterface {
  name = 'AuditChain1763741800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of auditChainUpSql('wallet')) {
      await queryRunner.query(statement);
    }
    for (const table of ['signature_events', 'policy_events']) {
      await queryRunner.query(`ALTER TABLE wallet.${table} ADD COLUMN seq bigint, ADD COLUMN prev_hash bytea, ADD COLUMN hash bytea`);
      await queryRunner.query(`CREATE UNIQUE INDEX ${table}_chain_idx ON wallet.${table} (application_id, seq) WHERE seq IS NOT NULL`);
      await queryRunner.query(`CREATE INDEX ${table}_unchained_idx ON wallet.${table} (id) WHERE seq IS NULL`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['signature_events', 'policy_events']) {
      await queryRunner.query(`DROP INDEX wallet.${table}_unchained_idx`);
      await queryRunner.query(`DROP INDEX wallet.${table}_chain_idx`);
      await queryRunner.query(`ALTER TABLE wallet.${table} DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash`);
    }
    for (const statement of auditChainDownSql('wallet')) {
      await queryRunner.query(statement);
    }
  }
}
