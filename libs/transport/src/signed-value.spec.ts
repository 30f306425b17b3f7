import { TransportKeyring } from './transport-keyring';
import { TransportKeys } from './transport-keys';
import { broadcastContext, cacheContext, openValue, signValue } from './signed-value';

describe('signed values', () => {
  const identityGateway = TransportKeyring.random('k1');
  const coreGateway = TransportKeyring.random('k1');
  const identity = new TransportKeys('identity', new Map([['gateway', identityGateway]]));
  const core = new TransportKeys('core', new Map([['gateway', coreGateway]]));
  const gateway = new TransportKeys('gateway', new Map([['identity', identityGateway], ['core', coreGateway]]));

  it('opens a value its owner signed for its context', () => {
    const value = signValue(identity, 'gateway', cacheContext('gw:api-key:abc'), '{"active":true}');
    expect(openValue(gateway, 'identity', cacheContext('gw:api-key:abc'), value)).toEqual({ ok: true, text: '{"active":true}' });
  });

  it('keeps text with spaces whole', () => {
    const wallet = TransportKeys.random('wallet');
    const value = signValue(wallet, 'wallet', broadcastContext('gw:wallet-used'), 'wallet-1 1700000000000');
    expect(openValue(wallet, 'wallet', broadcastContext('gw:wallet-used'), value)).toEqual({ ok: true, text: 'wallet-1 1700000000000' });
  });

  it('refuses a value moved to another key or channel', () => {
    const value = signValue(identity, 'gateway', cacheContext('gw:api-key:abc'), '{"active":true}');
    expect(openValue(gateway, 'identity', cacheContext('gw:api-key:def'), value)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(openValue(gateway, 'identity', broadcastContext('gw:api-key:abc'), value)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a value another app signed with its own key, even a valid one: only its owner makes it', () => {
    const value = signValue(core, 'gateway', cacheContext('k'), '{"active":true}');
    expect(openValue(gateway, 'core', cacheContext('k'), value)).toEqual({ ok: true, text: '{"active":true}' });
    expect(openValue(gateway, 'identity', cacheContext('k'), value)).toEqual({ ok: false, reason: 'refused-sender' });
  });

  it('refuses an unsigned value, a changed one and one signed with a key it does not know', () => {
    expect(openValue(gateway, 'identity', cacheContext('k'), '{"active":true}')).toEqual({ ok: false, reason: 'unsigned' });
    const value = signValue(identity, 'gateway', cacheContext('k'), '{"active":false}');
    expect(openValue(gateway, 'identity', cacheContext('k'), value.replace('false', 'true'))).toEqual({ ok: false, reason: 'bad-signature' });
    const stranger = signValue(TransportKeys.random('identity'), 'gateway', cacheContext('k'), 'x');
    expect(openValue(gateway, 'identity', cacheContext('k'), stranger)).toEqual({ ok: false, reason: 'unknown-key' });
  });
});
