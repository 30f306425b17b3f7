import { spawnApp } from '@game-wallet/testing';

describe('gateway configuration at start', () => {
  it('refuses to start on a bad variable, with one line naming it', async () => {
    const app = spawnApp('gateway', { BASE_PORT: 'abc', CORE_PORT: '70000' });
    await expect(app.waitForExit()).resolves.toBe(1);
    expect(app.lines).toEqual([
      'gateway: invalid configuration: BASE_PORT: must be a port number from 1 to 65535',
      'gateway: invalid configuration: CORE_PORT: must be a port number from 1 to 65535',
    ]);
  });

  it('refuses the development defaults in production', async () => {
    const app = spawnApp('gateway', { NODE_ENV: 'production' });
    await expect(app.waitForExit()).resolves.toBe(1);
    expect(app.lines).toEqual([
      'gateway: invalid configuration: TRANSPORT_HMAC_KEYS: must be set when NODE_ENV=production',
      'gateway: invalid configuration: DATABASE_URL: must be set (or GATEWAY_DATABASE_URL) when NODE_ENV=production',
      'gateway: invalid configuration: REDIS_URL: must be set (or REDIS_SENTINELS) when NODE_ENV=production',
    ]);
  });
});
