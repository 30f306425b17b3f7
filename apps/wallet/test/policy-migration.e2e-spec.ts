import { DEFAULT_SIGNING_POLICY, SigningPolicy, rulesOfPolicy, withPolicyDefaults } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { TEST_PG_URL, dropDatabase, queryOnce, uniqueDatabaseUrl } from '@game-wallet/testing';
import { DataSource } from 'typeorm';
import { walletDataSourceOptions } from '../src/database/data-source-options';
import { WALLET_MIGRATIONS } from '../src/database/migrations';
import { PolicyVersions1763741600000 } from '../src/database/migrations/1763741600000-PolicyVersions';

/**
 * The migration to policy v2 on a database of the release before it: each game's policy of the first shape becomes
 * version 1, the rules `rulesOfPolicy` converts it to (whose decisions the first shape's suites check), a policy saved
 * before the later limits existed converted with them absent (no limit, as it was).
 */
describe('signing policies migrated to rules', () => {
  const database = uniqueDatabaseUrl('policy_migration');

  beforeAll(async () => {
    await queryOnce(TEST_PG_URL, `CREATE DATABASE ${database.name}`);
    await queryOnce(database.url, 'CREATE SCHEMA wallet');
  });

  afterAll(async () => {
    await dropDatabase(database.name);
  });

  const migrate = async (migrations: typeof WALLET_MIGRATIONS): Promise<void> => {
    const source = await new DataSource({ ...walletDataSourceOptions(database.url), migrations }).initialize();
    try {
      await source.runMigrations({ transaction: 'each' });
    } finally {
      await source.destroy();
    }
  };

  it('turns each stored policy of the first shape into version 1: the rules that decide as it did', async () => {
    await migrate(WALLET_MIGRATIONS.slice(0, WALLET_MIGRATIONS.indexOf(PolicyVersions1763741600000)));
    const limited: SigningPolicy = {
      operations: { apiKey: ['message', 'transaction'], profile: ['message'] },
      evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['8453'], maxValueWei: '1000', contracts: ['0x1111111111111111111111111111111111111111'] },
      sol: { programs: ['11111111111111111111111111111111'], maxLamports: '5000', maxPriorityMicroLamports: null },
      sui: { packages: ['0x2'], allowTransfers: false, maxGasBudget: null },
    };
    // Saved by a release before the later limits: they are absent from the stored JSON.
    const early = { operations: { apiKey: ['message'], profile: [] }, evm: { chainIds: null, maxValueWei: '7', contracts: null }, sol: { programs: null, maxLamports: null }, sui: { packages: null, allowTransfers: true } };
    const [first, second] = [newId(), newId()];
    for (const [game, policy] of [[first, limited], [second, early]] as const) {
      await queryOnce(database.url, 'INSERT INTO wallet.signing_policies (application_id, policy, updated_at) VALUES ($1, $2, now())', [game, JSON.stringify(policy)]);
    }

    await migrate(WALLET_MIGRATIONS);

    const versions = await queryOnce<{ application_id: string; version: number; rules: unknown; origin: string; created_by: string }>(
      database.url,
      'SELECT application_id, version, rules, origin, created_by FROM wallet.signing_policy_versions ORDER BY application_id',
    );
    expect(versions.map(({ application_id, version, origin, created_by }) => [application_id, version, origin, created_by]).sort()).toEqual(
      [[first, 1, 'migrated', 'system:migration'], [second, 1, 'migrated', 'system:migration']].sort(),
    );
    const rulesOf = (game: string) => versions.find((row) => row.application_id === game)?.rules;
    expect(rulesOf(first)).toEqual(rulesOfPolicy(limited).rules);
    expect(rulesOf(second)).toEqual(rulesOfPolicy(withPolicyDefaults(early as never)).rules);
    const rows = await queryOnce<{ version: number }>(database.url, 'SELECT version FROM wallet.signing_policies');
    expect(rows.map((row) => row.version)).toEqual([1, 1]);
  });
});
