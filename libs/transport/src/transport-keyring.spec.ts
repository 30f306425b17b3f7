import { randomBytes } from 'node:crypto';
import { TransportKeyring } from './transport-keyring';

describe(TransportKeyring.name, () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const signer = new TransportKeyring(new Map([['k1', k1]]), 'k1');

  it('accepts what it signed, in the same context', () => {
    const signature = signer.sign('request gw:rpc:wallet', '[{"p":"wallet.wallets.sign"}]');
    expect(signature).toMatch(/^k1\.[A-Za-z0-9_-]{43}$/);
    expect(signer.verify('request gw:rpc:wallet', '[{"p":"wallet.wallets.sign"}]', signature)).toBe('ok');
  });

  it('refuses a changed text, another context, no signature, an unknown key id or a forged one', () => {
    const signature = signer.sign('request gw:rpc:wallet', 'text');
    expect(signer.verify('request gw:rpc:wallet', 'text!', signature)).toBe('bad-signature');
    expect(signer.verify('request gw:rpc:identity', 'text', signature)).toBe('bad-signature');
    expect(signer.verify('request gw:rpc:wallet', 'text', undefined)).toBe('unsigned');
    expect(signer.verify('request gw:rpc:wallet', 'text', `k9.${signature.slice(3)}`)).toBe('unknown-key');
    const forger = new TransportKeyring(new Map([['k1', randomBytes(32)]]), 'k1');
    expect(signer.verify('request gw:rpc:wallet', 'text', forger.sign('request gw:rpc:wallet', 'text'))).toBe('bad-signature');
  });

  it('rotates without downtime: a keyring with the old and the new key accepts both, and signs with the current one', () => {
    const during = new TransportKeyring(new Map([['k1', k1], ['k2', k2]]), 'k2');
    expect(during.verify('c', 't', signer.sign('c', 't'))).toBe('ok');
    expect(signer.verify('c', 't', during.sign('c', 't'))).toBe('unknown-key');
    expect(during.sign('c', 't')).toMatch(/^k2\./);
  });

  it('takes key ids with dots', () => {
    const dotted = new TransportKeyring(new Map([['2026.11', k1]]), '2026.11');
    expect(dotted.verify('c', 't', dotted.sign('c', 't'))).toBe('ok');
  });

  it('refuses keys shorter than 32 bytes, and a current id that is not among them', () => {
    expect(() => new TransportKeyring(new Map([['k', randomBytes(16)]]), 'k')).toThrow(/at least 32 bytes/);
    expect(() => new TransportKeyring(new Map([['k1', k1]]), 'k2')).toThrow(/not among the keys/);
  });
});
