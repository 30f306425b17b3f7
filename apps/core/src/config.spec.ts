import { commonProductionEnvironment, requiredVariables } from '@game-wallet/testing';
import { coreEnvShape, loadCoreConfig } from './config';

describe(loadCoreConfig.name, () => {
  it('refuses to start in production without exactly the variables docs/configuration.md says it requires there', () => {
    const { documented, refused } = requiredVariables(coreEnvShape, loadCoreConfig, commonProductionEnvironment('core'));
    expect(refused).toEqual(documented);
    expect(refused).toEqual(['REDIS_URL', 'DATABASE_URL', 'TRANSPORT_HMAC_KEYS']);
  });

  it('reads its own database URL before DATABASE_URL', () => {
    const config = loadCoreConfig({ DATABASE_URL: 'postgres://shared/db', CORE_DATABASE_URL: 'postgres://gw_core@db/game_wallet' });
    expect(config.databaseUrl).toBe('postgres://gw_core@db/game_wallet');
  });
});
