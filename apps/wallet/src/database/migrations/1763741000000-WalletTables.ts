import { MigrationInterface, QueryRunner } from 'typeorm';

/** Wallets (one per profile, secrets sealed) and the signature audit trail. */
export class WalletTables1763741000000 implements MigrationInterface {
  name = 'WalletTables1763741000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE wallet.wallets (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        profile_id uuid NOT NULL,
        address_evm varchar(42) NOT NULL,
        address_sol varchar(44) NOT NULL,
        address_sui varchar(66) NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz NOT NULL,
        entropy_ciphertext bytea NOT NULL,
        entropy_iv bytea NOT NULL,
        entropy_tag bytea NOT NULL,
        data_key_ciphertext bytea NOT NULL,
        data_key_iv bytea NOT NULL,
        data_key_tag bytea NOT NULL,
        master_key_id varchar(64) NOT NULL,
        CONSTRAINT wallets_one_per_profile UNIQUE (application_id, profile_id)
      )`);
    await queryRunner.query(`CREATE INDEX wallets_master_key_idx ON wallet.wallets (master_key_id)`);
    await queryRunner.query(`
      CREATE TABLE wallet.signature_events (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        wallet_id uuid NOT NULL REFERENCES wallet.wallets (id),
        chain varchar(8) NOT NULL,
        message_sha256 char(64) NOT NULL,
        credential varchar(80) NOT NULL,
        at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX signature_events_application_idx ON wallet.signature_events (application_id, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE wallet.signature_events');
    await queryRunner.query('DROP TABLE wallet.wallets');
  }
}
