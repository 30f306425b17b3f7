import { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxDownSql, outboxUpSql } from '@game-wallet/database';

/** The core service's event outbox (libs/database/src/outbox.ts): events written in the transaction of their change. */
export class Outbox1763742000000 implements MigrationInterface {
  name = 'Outbox1763742000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of outboxUpSql('core')) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of outboxDownSql('core')) {
      await queryRunner.query(statement);
    }
  }
}
