import { SigningPolicy, rulesOfPolicy, withPolicyDefaults } from '@game-wallet/contracts';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing policy v2: every version of a game's rules is kept (`signing_policy_versions`), the game's row names the
 * active one and holds its draft. Each game that set a policy gets version 1: its policy as ordered rules that decide
 * exactly as it did (`rulesOfPolicy`). The first shape stays in `policy`, and a policy saved as rules writes there
 * one that refuses every signature, so a replica of the previous release still running during the rolling update
 * fails closed rather than signing under the default. Signing attempts keep their decoded facts and deciding rule,
 * and the draft's disagreements with the active policy are listed in `policy_draft_differences`.
 */
export class PolicyVersions1763741600000 implements MigrationInterface {
  name = 'PolicyVersions1763741600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE wallet.signing_policy_versions (
        application_id uuid NOT NULL,
        version integer NOT NULL,
        rules jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        created_by varchar(400) NOT NULL,
        origin varchar(32) NOT NULL,
        PRIMARY KEY (application_id, version)
      )`);
    await queryRunner.query(`ALTER TABLE wallet.signing_policies ADD COLUMN version integer NOT NULL DEFAULT 0, ADD COLUMN draft jsonb, ADD COLUMN draft_updated_at timestamptz`);
    const rows: { application_id: string; policy: SigningPolicy; updated_at: Date }[] = await queryRunner.query(`SELECT application_id, policy, updated_at FROM wallet.signing_policies`);
    for (const row of rows) {
      await queryRunner.query(
        `INSERT INTO wallet.signing_policy_versions (application_id, version, rules, created_at, created_by, origin) VALUES ($1, 1, $2, $3, 'system:migration', 'migrated')`,
        [row.application_id, JSON.stringify(rulesOfPolicy(withPolicyDefaults(row.policy)).rules), row.updated_at],
      );
    }
    await queryRunner.query(`UPDATE wallet.signing_policies SET version = 1`);
    // Each signing attempt keeps what the rules read of it (never the message or payload) and what decided it.
    await queryRunner.query(`ALTER TABLE wallet.signature_events ADD COLUMN facts jsonb, ADD COLUMN policy_version integer, ADD COLUMN rule_id varchar(64)`);
    await queryRunner.query(`
      CREATE TABLE wallet.policy_draft_differences (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        attempt_id uuid NOT NULL,
        at timestamptz NOT NULL,
        wallet_id uuid NOT NULL,
        operation varchar(16) NOT NULL,
        chain varchar(8) NOT NULL,
        active_decision varchar(8) NOT NULL,
        active_rule_id varchar(64),
        draft_decision varchar(8) NOT NULL,
        draft_rule_id varchar(64)
      )`);
    await queryRunner.query(`CREATE INDEX policy_draft_differences_application_idx ON wallet.policy_draft_differences (application_id, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE wallet.policy_draft_differences');
    await queryRunner.query(`ALTER TABLE wallet.signature_events DROP COLUMN facts, DROP COLUMN policy_version, DROP COLUMN rule_id`);
    await queryRunner.query(`ALTER TABLE wallet.signing_policies DROP COLUMN version, DROP COLUMN draft, DROP COLUMN draft_updated_at`);
    await queryRunner.query('DROP TABLE wallet.signing_policy_versions');
  }
}
