import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A studio's team in the console: operators with a display name and a status, their role grants (every game or one
 * game), sessions that remember where they came from and when a second factor was last given, TOTP and passkeys as
 * second factors with single-use recovery codes, invitations, and the instance's console settings. The operators
 * that exist already become owners of every game.
 */
export class ConsoleOperators1763741700000 implements MigrationInterface {
  name = 'ConsoleOperators1763741700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE identity.operators
        ADD COLUMN display_name varchar(100) NOT NULL DEFAULT '',
        ADD COLUMN status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'removed')),
        ADD COLUMN totp_secret text,
        ADD COLUMN totp_pending_secret text,
        ADD COLUMN totp_last_step bigint,
        ADD COLUMN last_sign_in_at timestamptz,
        ADD COLUMN removed_at timestamptz`);
    // A removed operator stays (their ended sessions must stay refused); their e-mail may be invited again.
    await queryRunner.query(`ALTER TABLE identity.operators DROP CONSTRAINT operators_email_key`);
    await queryRunner.query(`CREATE UNIQUE INDEX operators_email_present_idx ON identity.operators (email) WHERE status <> 'removed'`);
    await queryRunner.query(`
      CREATE TABLE identity.operator_grants (
        id uuid PRIMARY KEY,
        operator_id uuid NOT NULL REFERENCES identity.operators (id) ON DELETE CASCADE,
        game_id uuid REFERENCES identity.games (id) ON DELETE CASCADE,
        role varchar(16) NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer'))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX operator_grants_scope_idx ON identity.operator_grants (operator_id, COALESCE(game_id, '00000000-0000-0000-0000-000000000000'::uuid), role)`);
    await queryRunner.query(`CREATE INDEX operator_grants_game_idx ON identity.operator_grants (game_id)`);
    await queryRunner.query(`INSERT INTO identity.operator_grants (id, operator_id, game_id, role) SELECT gen_random_uuid(), id, NULL, 'owner' FROM identity.operators`);
    await queryRunner.query(`
      ALTER TABLE identity.console_sessions
        ADD COLUMN ip varchar(64),
        ADD COLUMN user_agent varchar(256),
        ADD COLUMN last_seen_at timestamptz,
        ADD COLUMN second_factor_at timestamptz`);
    await queryRunner.query(`UPDATE identity.console_sessions SET last_seen_at = created_at`);
    await queryRunner.query(`CREATE INDEX console_sessions_operator_idx ON identity.console_sessions (operator_id, created_at)`);
    await queryRunner.query(`
      CREATE TABLE identity.operator_recovery_codes (
        id uuid PRIMARY KEY,
        operator_id uuid NOT NULL REFERENCES identity.operators (id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX operator_recovery_codes_operator_idx ON identity.operator_recovery_codes (operator_id)`);
    await queryRunner.query(`
      CREATE TABLE identity.operator_passkeys (
        id uuid PRIMARY KEY,
        operator_id uuid NOT NULL REFERENCES identity.operators (id) ON DELETE CASCADE,
        credential_id varchar(1366) NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports jsonb NOT NULL DEFAULT '[]',
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX operator_passkeys_operator_idx ON identity.operator_passkeys (operator_id)`);
    await queryRunner.query(`
      CREATE TABLE identity.operator_invitations (
        id uuid PRIMARY KEY,
        email varchar(320) NOT NULL,
        grants jsonb NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        invited_by uuid NOT NULL REFERENCES identity.operators (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES identity.operators (id),
        revoked_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE identity.console_settings (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        require_two_factor boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`INSERT INTO identity.console_settings (id) VALUES (1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['console_settings', 'operator_invitations', 'operator_passkeys', 'operator_recovery_codes', 'operator_grants']) {
      await queryRunner.query(`DROP TABLE identity.${table}`);
    }
    await queryRunner.query(`DROP INDEX identity.console_sessions_operator_idx`);
    await queryRunner.query(`ALTER TABLE identity.console_sessions DROP COLUMN ip, DROP COLUMN user_agent, DROP COLUMN last_seen_at, DROP COLUMN second_factor_at`);
    await queryRunner.query(`DELETE FROM identity.console_sessions WHERE operator_id IN (SELECT id FROM identity.operators WHERE status = 'removed')`);
    await queryRunner.query(`DELETE FROM identity.operators WHERE status = 'removed'`);
    await queryRunner.query(`DROP INDEX identity.operators_email_present_idx`);
    await queryRunner.query(`ALTER TABLE identity.operators ADD CONSTRAINT operators_email_key UNIQUE (email)`);
    await queryRunner.query(`
      ALTER TABLE identity.operators
        DROP COLUMN display_name, DROP COLUMN status, DROP COLUMN totp_secret, DROP COLUMN totp_pending_secret,
        DROP COLUMN totp_last_step, DROP COLUMN last_sign_in_at, DROP COLUMN removed_at`);
  }
}
