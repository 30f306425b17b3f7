import { MigrationInterface, QueryRunner } from 'typeorm';

/** Marks the schema as owned by the core service; later migrations add its tables. */
export class Baseline1763740800000 implements MigrationInterface {
  name = 'Baseline1763740800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`COMMENT ON SCHEMA "core" IS 'Owned by the core service of the game wallet platform'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`COMMENT ON SCHEMA "core" IS NULL`);
  }
}
