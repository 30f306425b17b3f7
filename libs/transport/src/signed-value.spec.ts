import { TransportKeyring } from './transport-keyring';
import { broadcastContext, cacheContext, openValue, signValue } from './signed-value';

describe('signed values', () => {
  const keyring = TransportKeyring.random('k1');

  it('opens a value signed for its context', () => {
    const value = signValue(keyring, cacheContext('gw:api-key:abc'), '{"active":true}');
    expect(openValue(keyring, cacheContext('gw:api-key:abc'), value)).toEqual({ ok: true, text: '{"active":true}' });
  });

  it('keeps text with spaces whole', () => {
    const value = signValue(keyring, broadcastContext('gw:wallet-used'), 'wallet-1 1700000000000');
    expect(openValue(keyring, broadcastContext('gw:wallet-used'), value)).toEqual({ ok: true, text: 'wallet-1 1700000000000' });
  });

  it('refuses a value moved to another key or channel', () => {
    const value = signValue(keyring, cacheContext('gw:api-key:abc'), '{"active":true}');
    expect(openValue(keyring, cacheContext('gw:api-key:def'), value)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(openValue(keyring, broadcastContext('gw:api-key:abc'), value)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses an unsigned value, a changed one and one signed with an unknown key', () => {
    expect(openValue(keyring, cacheContext('k'), '{"active":true}')).toEqual({ ok: false, reason: 'unsigned' });
    const value = signValue(keyring, cacheContext('k'), '{"active":false}');
    expect(openValue(keyring, cacheContext('k'), value.replace('false', 'true'))).toEqual({ ok: false, reason: 'bad-signature' });
    expect(openValue(keyring, cacheContext('k'), signValue(TransportKeyring.random('k2'), cacheContext('k'), 'x'))).toEqual({ ok: false, reason: 'unknown-key' });
  });
});
