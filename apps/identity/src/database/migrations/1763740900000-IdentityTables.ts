import { MigrationInterface, QueryRunner } from 'typeorm';

/** Games, API keys, profiles and their revocations, signing keys, console operators and sessions, audit events. */
export class IdentityTables1763740900000 implements MigrationInterface {
  name = 'IdentityTables1763740900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE identity.games (
        id uuid PRIMARY KEY,
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.api_keys (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL REFERENCES identity.games (id),
        name varchar(100) NOT NULL,
        key_hash char(64) NOT NULL UNIQUE,
        preview varchar(16) NOT NULL,
        active boolean NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX api_keys_application_idx ON identity.api_keys (application_id, id)`);
    await queryRunner.query(`
      CREATE TABLE identity.profiles (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL REFERENCES identity.games (id),
        external_key varchar(200),
        created_at timestamptz NOT NULL,
        CONSTRAINT profiles_external_key_unique UNIQUE (application_id, external_key)
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.profile_revocations (
        profile_id uuid PRIMARY KEY REFERENCES identity.profiles (id),
        application_id uuid NOT NULL,
        revoked_before timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.signing_keys (
        kid varchar(64) PRIMARY KEY,
        status varchar(16) NOT NULL CHECK (status IN ('current', 'previous', 'retired')),
        public_jwk jsonb NOT NULL,
        private_key_ciphertext bytea NOT NULL,
        private_key_iv bytea NOT NULL,
        private_key_tag bytea NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX signing_keys_one_current ON identity.signing_keys (status) WHERE status = 'current'`);
    await queryRunner.query(`
      CREATE TABLE identity.operators (
        id uuid PRIMARY KEY,
        email varchar(320) NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.console_sessions (
        id uuid PRIMARY KEY,
        operator_id uuid NOT NULL REFERENCES identity.operators (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.audit_events (
        id uuid PRIMARY KEY,
        application_id uuid,
        at timestamptz NOT NULL,
        actor varchar(400) NOT NULL,
        action varchar(64) NOT NULL,
        target varchar(400) NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await queryRunner.query(`CREATE INDEX audit_events_application_idx ON identity.audit_events (application_id, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['audit_events', 'console_sessions', 'operators', 'signing_keys', 'profile_revocations', 'profiles', 'api_keys', 'games']) {
      await queryRunner.query(`DROP TABLE identity.${table}`);
    }
  }
}
