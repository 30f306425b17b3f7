import { ConfigError } from '@game-wallet/config';
import { loadGatewayConfig } from './config';

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
