import { MigrationInterface, QueryRunner } from 'typeorm';
import { auditChainDownSql, auditChainUpSql } from '@game-wallet/database';

/**
 * The audit trail's hash chain (libs/database/src/audit-chain-sql.ts): a head per game (and one for rows of no game),
 * and each row's place in it. Nullable columns, so adding them rewrites nothing; rows from before are chained, oldest
 * first, by the service once it runs (audit/audit-chainer.ts), as are any a previous release writes during a rollout.
 */
export class AuditChain1763741900000 implements MigrationInterface {
  name = 'AuditChain1763741900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of auditChainUpSql('identity')) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(`ALTER TABLE identity.audit_events ADD COLUMN seq bigint, ADD COLUMN prev_hash bytea, ADD COLUMN hash bytea`);
    await queryRunner.query(`CREATE UNIQUE INDEX audit_events_chain_idx ON identity.audit_events (application_id, seq) WHERE seq IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX audit_events_unchained_idx ON identity.audit_events (id) WHERE seq IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX identity.audit_events_unchained_idx`);
    await queryRunner.query(`DROP INDEX identity.audit_events_chain_idx`);
    await queryRunner.query(`ALTER TABLE identity.audit_events DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash`);
    for (const statement of auditChainDownSql('identity')) {
      await queryRunner.query(statement);
    }
  }
}
