import { MigrationInterface, QueryRunner } from 'typeorm';

/** Players, unique per game by `unique_id`. */
export class PlayerTables1763741100000 implements MigrationInterface {
  name = 'PlayerTables1763741100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE core.players (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        unique_id varchar(512) NOT NULL,
        image varchar(2048),
        user_data jsonb NOT NULL DEFAULT '{}',
        profile_id uuid,
        wallet_id uuid,
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'ready')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT players_unique_id UNIQUE (application_id, unique_id),
        CONSTRAINT players_ready_complete CHECK (status = 'pending' OR (profile_id IS NOT NULL AND wallet_id IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX players_listing_idx ON core.players (application_id, id DESC) WHERE status = 'ready'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE core.players');
  }
}
