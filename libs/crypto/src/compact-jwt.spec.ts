import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, signEs256, verifyEs256 } from './compact-jwt';

describe('ES256 compact JWT', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const token = signEs256({ alg: 'ES256', kid: 'k1', typ: 'JWT' }, { sub: 'p1', exp: 2 }, privateKey);

  it('verifies what it signed', () => {
    const decoded = decodeJwt(token);
    expect(decoded?.header).toEqual({ alg: 'ES256', kid: 'k1', typ: 'JWT' });
    expect(decoded?.claims).toEqual({ sub: 'p1', exp: 2 });
    expect(verifyEs256(decoded!, publicKey)).toBe(true);
  });

  it('refuses another key, a changed payload and alg none', () => {
    expect(verifyEs256(decodeJwt(token)!, other.publicKey)).toBe(false);
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'p2', exp: 2 })).toString('base64url')}.${s}`;
    expect(verifyEs256(decodeJwt(forged)!, publicKey)).toBe(false);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'k1' })).toString('base64url')}.${token.split('.')[1]}.${s}`;
    expect(verifyEs256(decodeJwt(none)!, publicKey)).toBe(false);
  });

  it.each([['not-a-jwt'], ['a.b'], ['a.b.c.d'], ['e30.W10.sig'], ['!!.e30.e30']])('does not decode %p', (value) => {
    expect(decodeJwt(value)).toBeUndefined();
  });
});
