import { ConfigError } from '@game-wallet/config';
import { commonProductionEnvironment, requiredVariables } from '@game-wallet/testing';
import { gatewayEnvShape, loadGatewayConfig } from './config';

describe(loadGatewayConfig.name, () => {
  describe('TRUST_PROXY', () => {
    it.each([
      [undefined, false],
      ['false', false],
      ['1', 1],
      ['2', 2],
      ['10.0.0.0/8', ['10.0.0.0/8']],
      ['loopback, 10.0.0.0/8,192.168.1.7, fd00::/8', ['loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
    ])('takes %s', (value, trustProxy) => {
      expect(loadGatewayConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
    });

    it.each([['true'], ['0'], ['yes'], ['10.0.0.0/33'], ['10.0.0/8'], ['example.com'], ['10.0.0.0/8,']])('refuses %s, naming the variable', (value) => {
      expect(() => loadGatewayConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadGatewayConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be false, a hop count/);
    });
  });
});

describe('gateway variables required in production', () => {
  it('are the ones docs/configuration.md says, no more and no fewer', () => {
    const { documented, refused } = requiredVariables(gatewayEnvShape, loadGatewayConfig, commonProductionEnvironment('gateway'));
    expect(refused).toEqual(documented);
    expect(refused).toEqual(['REDIS_URL', 'DATABASE_URL', 'TRANSPORT_HMAC_KEYS']);
  });
});
